import { describe, expect, it } from 'vitest';
import { parseLegalMarkdown } from './legal-markdown';

describe('parseLegalMarkdown', () => {
  it('reads the title, headings, paragraphs and list items with their continuation lines', () => {
    const text = '# Terms\n\nFirst line\nsecond line.\n\n## Your account\n- One item\n  goes on.\n- Two\nAfter the list.\n';
    expect(parseLegalMarkdown(text)).toEqual([
      { kind: 'title', text: 'Terms' },
      { kind: 'paragraph', text: 'First line second line.' },
      { kind: 'heading', text: 'Your account' },
      { kind: 'list', items: ['One item goes on.', 'Two'] },
      { kind: 'paragraph', text: 'After the list.' },
    ]);
  });

  it('keeps markup as text', () => {
    expect(parseLegalMarkdown('<script>alert(1)</script>')).toEqual([{ kind: 'paragraph', text: '<script>alert(1)</script>' }]);
  });
});
