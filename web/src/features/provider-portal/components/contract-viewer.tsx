import { useEffect, useRef, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import styles from './provider-portal.module.css';

/** A letter page at 0.75 is 459 px wide with its 11 pt text at about 11 px. */
const MIN_READABLE_SCALE = 0.75;

type ViewerState = { kind: 'loading' } | { kind: 'ready'; pages: number } | { kind: 'failed' };

/** SHA-256 of the bytes, in hex: the contract's version as the server computes it. Null where WebCrypto is missing (plain http). */
async function sha256Hex(bytes: ArrayBuffer): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The contract PDF drawn inside the dialog, page after page, with pdf.js (downloaded on first
 * use). A frame would depend on the browser's PDF viewer (phones have none in frames) and on the
 * PDF answer allowing itself to be framed; drawing the fetched bytes needs neither. `onVersion`
 * gets the SHA-256 of exactly the bytes shown, which is what the provider agrees to.
 */
export function ContractViewer({ url, title, onVersion }: { url: string; title: string; onVersion: (version: string | null) => void }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<ViewerState>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    const controller = new AbortController();
    let destroy: (() => void) | null = null;
    (async () => {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) throw new Error(`contract ${response.status}`);
      const bytes = await response.arrayBuffer();
      onVersion(await sha256Hex(bytes));
      const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const task = pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false });
      destroy = () => void task.destroy();
      const pdf = await task.promise;
      const container = pagesRef.current;
      if (cancelled || !container) return;
      container.replaceChildren();
      const width = Math.max(container.clientWidth - 2, 240);
      const ratio = window.devicePixelRatio || 1;
      for (let number = 1; number <= pdf.numPages; number += 1) {
        const page = await pdf.getPage(number);
        if (cancelled) return;
        // Fitted to the width, but never so small that the text cannot be read (a phone scrolls sideways instead).
        const viewport = page.getViewport({ scale: Math.max(width / page.getViewport({ scale: 1 }).width, MIN_READABLE_SCALE) });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.setAttribute('aria-hidden', 'true');
        container.append(canvas);
        await page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
      }
      if (!cancelled) setState({ kind: 'ready', pages: pdf.numPages });
    })().catch((error: unknown) => {
      if (cancelled) return;
      console.warn('contract viewer', error);
      setState({ kind: 'failed' });
    });
    return () => {
      cancelled = true;
      controller.abort();
      destroy?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- drawn once per contract; onVersion is the dialog's setter
  }, [url]);

  return (
    // Focusable, so the contract scrolls with the keyboard too (its pages hold no control of their own).
    <div className={styles.contractFrame} role="document" aria-label={title} aria-busy={state.kind === 'loading'} tabIndex={0}>
      {state.kind === 'loading' ? <Spinner label="Loading the contract" /> : null}
      {state.kind === 'failed' ? <p className={styles.contractFailed}>The contract could not be shown here. Open it in a new tab with the link below.</p> : null}
      <div ref={pagesRef} className={styles.contractPages} />
    </div>
  );
}
