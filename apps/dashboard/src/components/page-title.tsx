import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** The page's h1, also the document title, so each page is named for screen readers and tabs. */
export function PageTitle({ children, title, actions }: { children: ComponentChildren; title: string; actions?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Crawl dashboard`;
  }, [title]);
  return (
    <div class="page-head">
      <h1>{children}</h1>
      {actions ? <div class="actions">{actions}</div> : null}
    </div>
  );
}
