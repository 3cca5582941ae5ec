/** Published release notes, newest first. None yet: the page shows its empty state (spec section 1). */
export interface ReleaseNote {
  product: string;
  version: string;
  /** yyyy-MM-dd */
  date: string;
  changes: readonly string[];
}

export const RELEASE_NOTES: readonly ReleaseNote[] = [];
