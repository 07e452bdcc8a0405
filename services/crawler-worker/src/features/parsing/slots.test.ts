import { describe, expect, it } from 'vitest';
import { Slots } from './slots.ts';

describe('Slots', () => {
  it('lets `size` holders in and the next ones in arrival order as slots are released', async () => {
    const slots = new Slots(2);
    const entered: number[] = [];
    const holders = [1, 2, 3, 4].map((n) => slots.acquire().then(() => entered.push(n)));
    await Promise.resolve();
    await Promise.resolve();
    expect(entered).toEqual([1, 2]);
    expect(slots.waiting).toBe(2);
    slots.release();
    await holders[2];
    expect(entered).toEqual([1, 2, 3]);
    slots.release();
    await holders[3];
    expect(entered).toEqual([1, 2, 3, 4]);
    expect(slots.waiting).toBe(0);
  });

  it('frees a slot for a later caller once every holder has left', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    slots.release();
    let entered = false;
    await slots.acquire().then(() => {
      entered = true;
    });
    expect(entered).toBe(true);
  });
});
