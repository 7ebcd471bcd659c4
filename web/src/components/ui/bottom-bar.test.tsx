import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { BottomBar } from './bottom-bar';

const reserved = () => document.documentElement.style.getPropertyValue('--bottom-bar-height');

/** ResizeObservers as the browser runs them: each reports its element's border box once the frame is laid out. */
const observers: { callback: ResizeObserverCallback; element: Element | null }[] = [];
class FakeResizeObserver {
  private readonly entry: { callback: ResizeObserverCallback; element: Element | null };
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, element: null };
    observers.push(this.entry);
  }
  observe(element: Element) {
    this.entry.element = element;
  }
  disconnect() {
    observers.splice(observers.indexOf(this.entry), 1);
  }
  unobserve() {}
}

/** The browser lays the frame out: each observed bar reports its height. */
function layOut(...blockSizes: number[]) {
  act(() => {
    for (const [index, { callback, element }] of [...observers].entries()) {
      const entry = { target: element, borderBoxSize: [{ blockSize: blockSizes[index] ?? 0, inlineSize: 390 }] } as unknown as ResizeObserverEntry;
      callback([entry], {} as ResizeObserver);
    }
  });
}

describe('BottomBar', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', FakeResizeObserver));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('reserves its height at the end of the page while it is shown, measured after layout, never forcing one', () => {
    const forcedLayout = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
    const { unmount } = render(
      <BottomBar data-testid="bar">
        <button type="button">View Map</button>
      </BottomBar>,
    );
    expect(screen.getByTestId('bar').contains(screen.getByRole('button', { name: 'View Map' }))).toBe(true);
    layOut(63.5);
    expect(reserved()).toBe('64px');
    // Read during React's commit, the height forced the whole page's layout before its first paint.
    expect(forcedLayout).not.toHaveBeenCalled();
    unmount();
    expect(reserved()).toBe('');
  });

  it('keeps the tallest reservation while two bars are shown, and follows a bar that wraps', () => {
    const first = render(<BottomBar>one</BottomBar>);
    const second = render(<BottomBar>two</BottomBar>);
    layOut(50, 80);
    expect(reserved()).toBe('80px');
    layOut(96, 80);
    expect(reserved()).toBe('96px');
    first.unmount();
    expect(reserved()).toBe('80px');
    second.unmount();
    expect(reserved()).toBe('');
  });
});
