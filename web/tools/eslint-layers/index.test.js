import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Lints `code` as if it were the file at `filePath` (relative to web/) with the app's config. */
async function layerMessages(filePath, code) {
  const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === 'nearcare/layers').map((m) => m.message);
}

describe('the layer rule, through the app ESLint config', () => {
  it('refuses a feature importing another feature, by alias or by a relative path', async () => {
    const byAlias = await layerMessages('src/features/home/x.ts', "import { a } from '@/features/auth/utils/a';\nexport { a };\n");
    const byPath = await layerMessages('src/features/home/components/x.ts', "export * from '../../auth/utils/a';\n");
    const lazily = await layerMessages('src/features/home/x.ts', "export const a = () => import('@/features/auth/x');\n");
    expect(byAlias).toEqual([expect.stringContaining('Features never import each other')]);
    expect(byPath).toEqual([expect.stringContaining("'../../auth/utils/a'")]);
    expect(lazily).toHaveLength(1);
  });

  it('refuses a shared layer importing a feature or app/', async () => {
    const feature = await layerMessages('src/lib/x.ts', "import { a } from '../features/auth/a';\nexport { a };\n");
    const app = await layerMessages('src/components/ui/x.ts', "import { a } from '@/app/router';\nexport { a };\n");
    expect(feature).toEqual([expect.stringContaining('Shared layers never import features or app/')]);
    expect(app).toHaveLength(1);
  });

  it('lets features use themselves and the shared layers, and app/ compose features', async () => {
    const own = await layerMessages('src/features/home/components/x.ts', "import { a } from '../utils/a';\nimport { b } from '@/features/home/b';\nimport { c } from '@/lib/c';\nexport { a, b, c };\n");
    const app = await layerMessages('src/app/x.ts', "import { a } from '@/features/auth/a';\nimport { b } from '@/features/home/b';\nexport { a, b };\n");
    expect(own).toEqual([]);
    expect(app).toEqual([]);
  });
});
