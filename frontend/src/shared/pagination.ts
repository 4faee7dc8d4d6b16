/** Up to 5 page buttons centred on the current page (SPEC §2 Contacts, §9). */
export const MAX_PAGE_BUTTONS = 5;

export function pageWindow(current: number, total: number, max = MAX_PAGE_BUTTONS): number[] {
  if (total < 1 || max < 1) return [];
  const page = Math.min(Math.max(1, Math.floor(current)), total);
  const size = Math.min(max, total);
  let start = page - Math.floor((size - 1) / 2);
  start = Math.max(1, Math.min(start, total - size + 1));
  return Array.from({ length: size }, (_, i) => start + i);
}

/** 'Showing 11–20 of 45': the first and last item numbers of a page (0–0 when empty). */
export function pageRange(page: number, limit: number, totalItems: number): { from: number; to: number } {
  if (totalItems <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from: Math.min(from, totalItems), to: Math.min(page * limit, totalItems) };
}
