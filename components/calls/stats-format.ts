/** How call statistics read: rates with a sensible precision, shares as percentages. */

export function formatPerMinute(perMinute: number): string {
  if (perMinute === 0) return "0";
  if (perMinute < 0.1) return "< 0.1";
  return perMinute < 10 ? perMinute.toFixed(1) : String(Math.round(perMinute));
}

export function formatShare(share: number): string {
  if (share === 0) return "0%";
  const percent = share * 100;
  return percent < 1 ? "< 1%" : `${Math.round(percent)}%`;
}

/** An error rate worth a look: any error at all is amber, a tenth or more red. */
export function errorTone(share: number): string {
  if (share >= 0.1) return "text-red-700";
  return share > 0 ? "text-amber-700" : "text-slate-500";
}
