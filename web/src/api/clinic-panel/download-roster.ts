import { apiBlob } from '@/lib/api-client';

/** GET /dpcproviders/roster.csv?month=YYYY-MM, saved by the browser under the server's file name. */
export async function downloadRoster(month: string): Promise<void> {
  const { blob, filename } = await apiBlob('/dpcproviders/roster.csv', { query: { month } });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? `roster-${month}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the object URL can go once the click is handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
