/**
 * Revenue and refunds per period as bars (Chart.js, registered piece by piece so only bars are bundled). Colour is
 * never the only cue: refunds are hatched, every bar has a legend label and tooltip, and the table beside the chart
 * holds the same figures.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import type { SeriesRow } from './api';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

function hatch(color: string): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = tile.height = 8;
  const pen = tile.getContext('2d');
  if (!pen) return color;
  pen.strokeStyle = color;
  pen.lineWidth = 2;
  pen.beginPath();
  pen.moveTo(0, 8);
  pen.lineTo(8, 0);
  pen.stroke();
  return pen.createPattern(tile, 'repeat') ?? color;
}

export function RevenueChart({ rows, labels, label }: { rows: SeriesRow[]; labels: { revenue: string; refunds: string }; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return undefined;
    const periods = [...new Set(rows.map((row) => row.period))];
    const value = (period: string, key: 'revenue' | 'refunds') =>
      rows.filter((row) => row.period === period).reduce((sum, row) => sum + row[key], 0);
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: periods,
        datasets: [
          { label: labels.revenue, data: periods.map((p) => value(p, 'revenue')), backgroundColor: '#2d1f6b', borderColor: '#2d1f6b', borderWidth: 1 },
          { label: labels.refunds, data: periods.map((p) => value(p, 'refunds')), backgroundColor: hatch('#a01919'), borderColor: '#a01919', borderWidth: 2 },
        ],
      },
      options: { animation: false, responsive: true, plugins: { legend: { position: 'bottom' } } },
    });
    return () => chart.destroy();
  }, [rows, labels.revenue, labels.refunds]);
  return (
    <figure>
      <canvas ref={canvas} role="img" aria-label={label} height={90} />
      <figcaption>{label}</figcaption>
    </figure>
  );
}
