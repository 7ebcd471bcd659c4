import { describe, expect, it } from 'vitest';
import { clusterPins, PIN_FOOTPRINT } from './pin-clusters';

const pin = <T,>(x: number, y: number, item: T) => ({ x, y, item });
const { width, height } = PIN_FOOTPRINT;

describe('clusterPins', () => {
  it('keeps pins apart when they do not cover each other, each a group of one', () => {
    const groups = clusterPins([pin(0, 0, 'a'), pin(100, 0, 'b'), pin(0, 100, 'c')]);
    expect(groups.map((group) => group.items)).toEqual([['a'], ['b'], ['c']]);
  });

  it('groups pins whose shapes overlap: closer than a pin on both axes, and no further', () => {
    const groups = clusterPins([pin(0, 0, 'a'), pin(width - 1, height - 1, 'b'), pin(width, 0, 'c'), pin(0, height, 'd')]);
    expect(groups.map((group) => group.items)).toEqual([['a', 'b'], ['c'], ['d']]);
  });

  it('piles forty pins at one ZIP code into a single group', () => {
    const pile = Array.from({ length: 40 }, (_, index) => pin(200 + (index % 5) * 3, 300 + Math.floor(index / 5) * 3, `clinic ${index}`));
    const groups = clusterPins(pile);
    expect(groups).toHaveLength(1);
    expect(groups[0].items).toHaveLength(40);
  });

  it('puts every pin in exactly one group', () => {
    const pins = Array.from({ length: 200 }, (_, index) => pin((index * 37) % 400, (index * 53) % 300, index));
    const items = clusterPins(pins).flatMap((group) => group.items);
    expect(items.sort((a, b) => a - b)).toEqual(pins.map((entry) => entry.item));
  });

  it('leaves seeds that never cover each other, so markers drawn at them never pile up', () => {
    const pins = Array.from({ length: 150 }, (_, index) => pin((index * 37) % 300, (index * 53) % 200, index));
    const seeds = clusterPins(pins).map((group) => pins[group.items[0]]);
    for (const [i, a] of seeds.entries()) {
      for (const b of seeds.slice(i + 1)) expect(Math.abs(a.x - b.x) >= width || Math.abs(a.y - b.y) >= height).toBe(true);
    }
  });
});
