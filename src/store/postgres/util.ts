/** Whether `id` can be an id at all (a BIGINT parameter that is not one would be a query error). */
export const safeId = (id: number): boolean => Number.isSafeInteger(id);

/** Only the values that can be ids. */
export const safeIds = (ids: readonly number[]): number[] => ids.filter(safeId);
