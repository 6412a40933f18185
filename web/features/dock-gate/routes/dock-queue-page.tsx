import { ComingSoonPage } from '../../../components/ui/coming-soon-page';

// /dockmaster/queue (issue 10): placeholder until the gate queue screen lands.
export default function DockQueuePage() {
  return <ComingSoonPage title="Gate Queue" description="Vehicles waiting at the gate, in order of arrival." />;
}
