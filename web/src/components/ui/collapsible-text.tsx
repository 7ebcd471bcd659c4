import { useId, useState } from 'react';
import styles from './collapsible-text.module.css';

/** Characters shown while a long description is collapsed. */
export const PREVIEW_CHARS = 200;
/** The show more / less toggle is offered only above this length. */
export const TOGGLE_ABOVE_CHARS = 300;

/** A description collapsed to a 200-character preview, with a toggle when it is over 300. */
export function CollapsibleText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const value = text.trim();
  const collapsible = value.length > TOGGLE_ABOVE_CHARS;
  const shown = collapsible && !expanded ? `${value.slice(0, PREVIEW_CHARS).trimEnd()}...` : value;
  return (
    <div className={styles.wrapper}>
      <p id={id} className={styles.text}>
        {shown}
      </p>
      {collapsible ? (
        <button type="button" className={styles.toggle} aria-controls={id} aria-expanded={expanded} onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : 'Show more'}
        </button>
      ) : null}
    </div>
  );
}
