import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { useLegalDocument, type LegalDocumentName } from '@/api/legal/get-legal-document';
import { errorText } from '@/lib/api-client';
import { parseLegalMarkdown } from '@/lib/legal-markdown';
import styles from './route-pages.module.css';

/** /terms, /privacy, /cookies: the operator's text (legal/README.md), as the server serves it. */
function LegalPage({ document }: { document: LegalDocumentName }) {
  const query = useLegalDocument(document);
  if (query.isPending) return <Spinner label="Loading page" />;
  if (query.isError) {
    return (
      <div className={styles.legal}>
        <Alert tone="error" title="This page could not be loaded">
          {errorText(query.error, 'Please try again in a moment.')}
        </Alert>
      </div>
    );
  }
  return (
    <article className={styles.legal} data-version={query.data.version}>
      {parseLegalMarkdown(query.data.text).map((block, index) => {
        switch (block.kind) {
          case 'title':
            return <h1 key={index}>{block.text}</h1>;
          case 'heading':
            return <h2 key={index}>{block.text}</h2>;
          case 'list':
            return (
              <ul key={index}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{item}</li>
                ))}
              </ul>
            );
          default:
            return <p key={index}>{block.text}</p>;
        }
      })}
    </article>
  );
}

export function TermsRoute() {
  return <LegalPage document="terms" />;
}

export function PrivacyRoute() {
  return <LegalPage document="privacy" />;
}

export function CookiesRoute() {
  return <LegalPage document="cookies" />;
}
