import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, defineConfig, describeConfig, loadConfig } from './load-config.ts';

const Schema = defineConfig({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 3000, description: 'port' }),
  DEBUG: Type.Boolean({ default: false }),
  NAME: Type.Optional(Type.String({ minLength: 2 })),
  MODE: Type.Union([Type.Literal('a'), Type.Literal('b')], { default: 'a' }),
});

describe('loadConfig', () => {
  it('applies defaults, coerces strings and treats empty values as unset', () => {
    expect(loadConfig(Schema, { PORT: '8080', DEBUG: 'true', NAME: '' })).toEqual({ PORT: 8080, DEBUG: true, MODE: 'a' });
  });

  it('lets explicit overrides win over the environment', () => {
    expect(loadConfig(Schema, { PORT: '8080' }, { PORT: 9090 }).PORT).toBe(9090);
  });

  it('fails fast listing every problem with the offending value', () => {
    let error: unknown;
    try {
      loadConfig(Schema, { PORT: 'eighty', MODE: 'c', NAME: 'x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT: .*\(got "eighty"\)/);
    expect(problems).toMatch(/MODE: .*\(got "c"\)/);
    expect(problems).toMatch(/NAME: .*\(got "x"\)/);
  });

  it('describes the table for docs', () => {
    expect(describeConfig(Schema)[0]).toEqual({ name: 'PORT', default: '3000', description: 'port' });
  });
});
