/** One block of a legal page: the small Markdown legal/README.md describes. */
export type LegalBlock =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] };

/**
 * Splits the operator's text into blocks: `# ` title, `## ` headings, `- ` list items (an
 * indented line continues the item), paragraphs separated by blank lines. Nothing is read as
 * HTML: the blocks are rendered as text.
 */
export function parseLegalMarkdown(text: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) {
      flush();
    } else if (line.startsWith('## ')) {
      flush();
      blocks.push({ kind: 'heading', text: line.slice(3).trim() });
    } else if (line.startsWith('# ')) {
      flush();
      blocks.push({ kind: 'title', text: line.slice(2).trim() });
    } else if (line.startsWith('- ')) {
      if (paragraph.length) flush();
      list ??= [];
      list.push(line.slice(2).trim());
    } else if (list && /^\s/.test(raw)) {
      list[list.length - 1] += ` ${line}`;
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
