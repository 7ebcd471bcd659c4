/**
 * Client-side clustering of clinic pins that would overlap on screen: pins whose shapes would
 * cover each other at the current zoom are drawn as one numbered marker. A group of one stays a
 * plain pin, so the map never shows "1 clinic in this area".
 */

/** A pin's tip in screen pixels at the current zoom, with what it stands for. */
export interface ScreenPin<T> {
  x: number;
  y: number;
  item: T;
}

/** Pins drawn together: a single pin (one item) or a cluster (two or more). */
export interface PinGroup<T> {
  items: T[];
}

/**
 * The room a marker takes above its tip: pins are 40 by 60 (the last few pixels are the point), and
 * clusters, up to 44 wide, sit on the same tip. Two markers closer than this on both axes cover
 * each other.
 */
export const PIN_FOOTPRINT = { width: 44, height: 54 } as const;

/**
 * Groups pins greedily: the first pin not yet grouped takes every other ungrouped pin whose
 * footprint it would cover. Every group's first item is its seed, and no seed covers another, so
 * markers drawn at the seeds never pile up. Pins are compared pairwise, which is cheap for the at
 * most few hundred pins the map draws one by one (more become the server's area pins). The order
 * of `pins` is kept.
 */
export function clusterPins<T>(pins: ScreenPin<T>[], footprint: { width: number; height: number } = PIN_FOOTPRINT): PinGroup<T>[] {
  const grouped = new Array<boolean>(pins.length).fill(false);
  const groups: PinGroup<T>[] = [];
  for (let seed = 0; seed < pins.length; seed += 1) {
    if (grouped[seed]) continue;
    grouped[seed] = true;
    const items = [pins[seed].item];
    for (let other = seed + 1; other < pins.length; other += 1) {
      if (grouped[other]) continue;
      const covers = Math.abs(pins[other].x - pins[seed].x) < footprint.width && Math.abs(pins[other].y - pins[seed].y) < footprint.height;
      if (covers) {
        grouped[other] = true;
        items.push(pins[other].item);
      }
    }
    groups.push({ items });
  }
  return groups;
}

/** A disc on screen, in pixels: the room a marker takes. */
export interface Disc {
  x: number;
  y: number;
  radius: number;
}

/** Room kept between two area markers, so each stays a whole target of its own. */
export const AREA_GAP = 4;

/**
 * Merges area markers (the server's counts of clinics by cell, placed at `x`, `y` on screen) that
 * would touch or overlap: the largest of a touching group stays where it is and takes the others
 * in. `disc` gives the room a marker for some items takes when placed at a point (a pin for one
 * clinic stands above its point, a count is centred on it); merging repeats until no two markers
 * touch, so the map never shows one count half under another.
 */
export function mergeOverlappingAreas<T>(areas: ScreenPin<T>[], disc: (x: number, y: number, items: T[]) => Disc): PinGroup<T>[] {
  let groups = areas.map((area) => ({ x: area.x, y: area.y, items: [area.item] }));
  const touch = (a: Disc, b: Disc) => Math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius + AREA_GAP;
  for (let merged = true; merged; ) {
    merged = false;
    groups.sort((a, b) => b.items.length - a.items.length);
    const kept: Array<(typeof groups)[number] & { disc: Disc }> = [];
    for (const group of groups) {
      const own = disc(group.x, group.y, group.items);
      const host = kept.find((other) => touch(other.disc, own));
      if (!host) {
        kept.push({ ...group, disc: own });
        continue;
      }
      host.items.push(...group.items);
      host.disc = disc(host.x, host.y, host.items);
      merged = true;
    }
    groups = kept;
  }
  return groups.map(({ items }) => ({ items }));
}
