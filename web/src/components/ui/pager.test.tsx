import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Pager, visiblePages } from './pager';

describe('Pager', () => {
  it('is hidden when there is a single page', () => {
    const { container } = render(<Pager page={1} totalPages={1} onChange={vi.fn()} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows at most 4 page buttons', () => {
    render(<Pager page={5} totalPages={20} onChange={vi.fn()} />);
    const numbered = screen.getAllByRole('button', { name: /^Page \d+$/ });
    expect(numbered.map((button) => button.textContent)).toEqual(['4', '5', '6', '7']);
    expect(screen.getByRole('button', { name: 'Page 5' }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps the window inside the page range', () => {
    expect(visiblePages(1, 20)).toEqual([1, 2, 3, 4]);
    expect(visiblePages(20, 20)).toEqual([17, 18, 19, 20]);
    expect(visiblePages(2, 2)).toEqual([1, 2]);
  });

  it('moves with previous and next', () => {
    const onChange = vi.fn();
    render(<Pager page={1} totalPages={3} onChange={onChange} />);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    screen.getByRole('button', { name: 'Next page' }).click();
    screen.getByRole('button', { name: 'Page 3' }).click();
    expect(onChange.mock.calls).toEqual([[2], [3]]);
  });
});
