import { describe, expect, it } from 'vitest';
import { faceViolations, featureFaceCheck } from './feature-faces.ts';

const F = 'services/shop/src/features';

/** A tree of files with their sources; `check` runs the rule over it. */
function tree(files: Record<string, string>) {
  const paths = Object.keys(files);
  const read = (file: string) => files[file] as string;
  return { violations: () => faceViolations(paths, read), check: (notYet: string[] = []) => featureFaceCheck(paths, read, notYet) };
}

describe('faceViolations', () => {
  it("accepts imports of another feature's index.ts, of the shared folders, and within a feature (tests included)", () => {
    const t = tree({
      [`${F}/orders/order-service.ts`]:
        "import { Stock } from '../stock/index.ts';\nimport type { Logger } from '../shared/ports.ts';\nimport { rules } from './order-rules.ts';",
      [`${F}/orders/order-service.test.ts`]: "import { OrderService } from './order-service.ts';\nimport { rules } from './deep/order-rules.ts';",
      [`${F}/orders/deep/order-rules.ts`]: "export { price } from '../../pricing/index.ts';",
      [`${F}/stock/index.ts`]: "export { Stock } from './stock-service.ts';",
      'services/shop/src/shop.ts': "import { StockRepository } from './features/stock/stock-repository.ts';",
    });
    expect(t.violations()).toEqual([]);
  });

  it("flags an import past another feature's face: static, type-only, re-export and dynamic, from code and from tests", () => {
    const t = tree({
      [`${F}/orders/order-service.ts`]: [
        "import { Stock } from '../stock/index.ts';",
        "import { StockRepository } from '../stock/stock-repository.ts';",
        "import type { StockDoc } from '../stock/model/stock-doc.ts';",
        "export { reserve } from '../stock/reserve.ts';",
        "const lazy = await import('../stock/lazy.ts');",
      ].join('\n'),
      [`${F}/orders/order-service.test.ts`]: "import { StockRepository } from '../stock/stock-repository.ts';",
    });
    expect(t.violations().map((v) => `${v.file}:${v.line} ${v.specifier} (${v.feature})`)).toEqual([
      `${F}/orders/order-service.ts:2 ../stock/stock-repository.ts (stock)`,
      `${F}/orders/order-service.ts:3 ../stock/model/stock-doc.ts (stock)`,
      `${F}/orders/order-service.ts:4 ../stock/reserve.ts (stock)`,
      `${F}/orders/order-service.ts:5 ../stock/lazy.ts (stock)`,
      `${F}/orders/order-service.test.ts:1 ../stock/stock-repository.ts (stock)`,
    ]);
  });

  it('resolves the path, so a detour through another folder or a deeper file is still caught', () => {
    const t = tree({
      [`${F}/orders/deep/order-rules.ts`]: "import { x } from '../../stock/../stock/x.ts';\nimport { y } from '../../../features/stock/index.ts';",
    });
    expect(t.violations().map((v) => v.specifier)).toEqual(['../../stock/../stock/x.ts']);
  });

  it("ignores packages, other services' files and comments", () => {
    const t = tree({
      [`${F}/orders/order-service.ts`]: [
        "import { errors } from '@crawl/errors';",
        "import { a } from '../../../../other/src/features/stock/a.ts';",
        "// import { b } from '../stock/b.ts';",
      ].join('\n'),
    });
    expect(t.violations()).toEqual([]);
  });
});

describe('featureFaceCheck', () => {
  const files = {
    [`${F}/orders/order-service.ts`]: "import { StockRepository } from '../stock/stock-repository.ts';",
    'services/clean/src/features/a/a.ts': "import { b } from '../b/index.ts';",
  };

  it('fails an enforced service, naming the file, the line and the face to use', () => {
    expect(tree(files).check().problems).toEqual([
      `${F}/orders/order-service.ts:1: imports ../stock/stock-repository.ts; other features use features/stock through features/stock/index.ts`,
    ]);
  });

  it('only counts the violations of a service not enforced yet, and says when a listed service could be enforced', () => {
    const { problems, notices } = tree(files).check(['shop', 'clean', 'without-features']);
    expect(problems).toEqual([]);
    expect(notices).toEqual([
      "services/shop: 1 import between features bypasses a feature's index.ts (not enforced yet)",
      'services/clean: every feature is used through its index.ts; take it off NOT_YET_ENFORCED in scripts/workspace/feature-faces.ts',
    ]);
  });
});
