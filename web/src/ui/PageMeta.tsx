import { useEffect } from 'react';
import { format } from '../i18n/catalogues';
import { useShellT } from '../i18n/useT';

interface PageMetaProps {
  /** Page name shown before the brand in the tab title; the home page leaves it out. */
  title?: string;
}

function setDescription(content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.append(tag);
  }
  tag.content = content;
}

/** Sets the document title and description for the current page and language. */
export function PageMeta({ title }: PageMetaProps) {
  const t = useShellT();
  const documentTitle = title ? format(t.meta.pageTitle, { page: title }) : t.meta.title;

  useEffect(() => {
    document.title = documentTitle;
    setDescription(t.meta.description);
  }, [documentTitle, t.meta.description]);

  return null;
}
