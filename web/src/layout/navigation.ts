/** Header links that show the 'New' tag. Switch one on when its page or feature is new. */
export const NEW_TAGS: Readonly<Record<'purchase' | 'helpCenter' | 'reportBug', boolean>> = {
  purchase: false,
  helpCenter: false,
  reportBug: false,
};
