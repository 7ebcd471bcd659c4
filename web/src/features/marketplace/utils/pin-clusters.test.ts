import { describe, expect, it } from 'vitest';
import { AREA_GAP, clusterPins, mergeOverlappingAreas, PIN_FOOTPRINT } from './pin-clusters';

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

describe('mergeOverlappingAreas', () => {
  const area = (x: number, y: number, count: number) => ({ x, y, item: count });
  const disc = (radius: (items: number[]) => number) => (x: number, y: number, items: number[]) => ({ x, y, radius: radius(items) });

  it('keeps areas whose discs stand apart', () => {
    const groups = mergeOverlappingAreas([area(0, 0, 5), area(36 + AREA_GAP, 0, 7)], disc(() => 18));
    expect(groups.map((group) => group.items)).toEqual([[5], [7]]);
  });

  it('merges touching discs into one, which takes in what its grown disc then reaches', () => {
    // 3 touches 9; once 9 takes it in, its disc grows to 40 and reaches 4 (60 px away) as well.
    const groups = mergeOverlappingAreas([area(0, 0, 9), area(30, 0, 3), area(60, 0, 4)], disc((items) => (items.length > 1 ? 40 : 18)));
    expect(groups).toHaveLength(1);
    expect(groups[0].items.sort((a, b) => a - b)).toEqual([3, 4, 9]);
  });

  it('counts a marker where it stands: a pin above its point meets a count centred just above it', () => {
    // A single clinic's pin stands 60 px above its point; a count 50 px above the pin's point meets it.
    const shape = (x: number, y: number, items: number[]) => (items.length === 1 && items[0] === 1 ? { x, y: y - 30, radius: 30 } : { x, y, radius: 18 });
    expect(mergeOverlappingAreas([area(0, 0, 1), area(0, -50, 12)], shape)).toHaveLength(1);
    expect(mergeOverlappingAreas([area(0, 0, 1), area(0, 50, 12)], shape)).toHaveLength(2);
  });

  it('leaves no two markers touching, whatever the layout', () => {
    const areas = Array.from({ length: 120 }, (_, index) => area((index * 37) % 500, (index * 53) % 300, index + 1));
    const radiusOf = (items: number[]) => (items.length > 3 ? 30 : 22);
    const groups = mergeOverlappingAreas(areas, disc(radiusOf));
    const placed = groups.map((group) => {
      const host = areas.find((candidate) => candidate.item === group.items[0])!;
      return { x: host.x, y: host.y, radius: radiusOf(group.items) };
    });
    for (const [i, a] of placed.entries()) for (const b of placed.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.radius + b.radius + AREA_GAP);
    expect(groups.flatMap((group) => group.items).sort((a, b) => a - b)).toEqual(areas.map((entry) => entry.item));
  });
});
