import { ComingSoonPage } from '../../../components/ui/coming-soon-page';

// /dockmaster/scan and /org/ops/scan (issue 10): placeholder until the scanner screen lands.
export default function PlateScanPage() {
  return <ComingSoonPage title="Plate Scanner" description="Read a number plate by camera or typed input and match it to an expected vehicle." />;
}
