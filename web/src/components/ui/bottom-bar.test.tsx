import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { BottomBar } from './bottom-bar';

const reserved = () => document.documentElement.style.getPropertyValue('--bottom-bar-height');

describe('BottomBar', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reserves its height at the end of the page while it is shown', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 780, 390, 63.5));
    const { unmount } = render(
      <BottomBar data-testid="bar">
        <button type="button">View Map</button>
      </BottomBar>,
    );
    expect(screen.getByTestId('bar').contains(screen.getByRole('button', { name: 'View Map' }))).toBe(true);
    expect(reserved()).toBe('64px');
    unmount();
    expect(reserved()).toBe('');
  });

  it('keeps the tallest reservation while two bars are shown', () => {
    const heights = [50, 80];
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => new DOMRect(0, 0, 100, heights.shift() ?? 0));
    const first = render(<BottomBar>one</BottomBar>);
    const second = render(<BottomBar>two</BottomBar>);
    expect(reserved()).toBe('80px');
    second.unmount();
    expect(reserved()).toBe('50px');
    first.unmount();
    expect(reserved()).toBe('');
  });
});
