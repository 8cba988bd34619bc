/** Where the previous page stopped, in the list's own order: `(sortValue, id)`. */
export interface KeysetPosition {
  sortValue: Date;
  id: string;
}

export interface KeysetQuery {
  garageId: string;
  /** How many rows to return at most. */
  limit: number;
  after: KeysetPosition | null;
  updatedSince: Date | null;
}
