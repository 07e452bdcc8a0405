import { describe, expect, it } from 'vitest';
import { orderModules } from './module-order.ts';
import type { ServiceModule } from './service-module.ts';

const module = (name: ServiceModule['name'], dependencies: ServiceModule['name'][] = []): ServiceModule => ({ name, dependencies, init: () => ({}) });

describe('orderModules', () => {
  it('starts dependencies first and ignores those in other processes', () => {
    const order = orderModules([module('auth', ['billing', 'catalog']), module('catalog', ['billing']), module('gateway'), module('billing')]).map(
      (m) => m.name,
    );
    expect(order.indexOf('billing')).toBeLessThan(order.indexOf('catalog'));
    expect(order.indexOf('catalog')).toBeLessThan(order.indexOf('auth'));
    expect(orderModules([module('auth', ['billing'])]).map((m) => m.name)).toEqual(['auth']);
  });

  it('reports a cycle', () => {
    expect(() => orderModules([module('auth', ['billing']), module('billing', ['auth'])])).toThrow(
      /cycle: auth -> billing -> auth|cycle: billing -> auth -> billing/,
    );
  });
});
