/** One page of an array the server returns whole (scrap reasons). */
export function clientPage<T>(rows: T[] | undefined, page: number, pageSize: number): T[] | undefined {
  if (!rows) return undefined;
  const start = (page - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}

export function matches(search: string, ...fields: (string | null | undefined)[]): boolean {
  if (!search) return true;
  const q = search.toLowerCase();
  return fields.some((f) => f?.toLowerCase().includes(q));
}
