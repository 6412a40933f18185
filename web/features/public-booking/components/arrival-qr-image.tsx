import { encode } from 'uqr';

// The QR image itself, in its own chunk with the encoder (arrival-qr.tsx loads it lazily, so the
// public form's first load does not carry it).

/** A QR code of `text` as one SVG path (dark modules), with the standard quiet zone of 4 modules. */
export default function ArrivalQrImage({ text, size, label }: { text: string; size: number; label: string }) {
  const qr = encode(text, { ecc: 'M', border: 4 });
  let path = '';
  qr.data.forEach((row, y) =>
    row.forEach((isDark, x) => {
      if (isDark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      data-testid="arrival-qr"
      style={{ display: 'block', background: '#fff' }}
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
