/** Long policy texts live with the terms pages (loaded with them), one module per language. */
export interface PolicySection {
  /** Anchor of the section, the same in every language. */
  id: string;
  heading: string;
  paragraphs: readonly string[];
  items?: readonly string[];
}

export interface PolicyDocument {
  /** Date the text took effect, yyyy-MM-dd. */
  updated: string;
  intro: string;
  sections: readonly PolicySection[];
}

export interface PolicyTexts {
  /** The terms of use (agreed to at purchase and registration). */
  terms: PolicyDocument;
  lifetime: PolicyDocument;
  subscription: PolicyDocument;
  privacy: PolicyDocument;
}
