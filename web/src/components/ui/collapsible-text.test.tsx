import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { CollapsibleText } from './collapsible-text';

const text = (length: number) => 'abcdefghij'.repeat(Math.ceil(length / 10)).slice(0, length);

describe('CollapsibleText', () => {
  it('shows up to 300 characters whole, without a toggle', () => {
    render(<CollapsibleText text={text(300)} />);
    expect(screen.getByText(text(300))).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('collapses longer text to a 200-character preview with show more / less', () => {
    const long = text(301);
    render(<CollapsibleText text={long} />);
    expect(screen.getByText(`${long.slice(0, 200)}...`)).toBeTruthy();
    const toggle = screen.getByRole('button', { name: 'Show more' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => toggle.click());
    expect(screen.getByText(long)).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Show less' }).click());
    expect(screen.getByText(`${long.slice(0, 200)}...`)).toBeTruthy();
  });
});
