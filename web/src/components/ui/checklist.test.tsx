import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { Checklist } from './checklist';

const options = Array.from({ length: 200 }, (_, index) => `Organisation ${String(index + 1).padStart(3, '0')}`);

describe('Checklist', () => {
  it('shows 3 items, then a virtualised window of a long list', () => {
    const onToggle = vi.fn();
    render(<Checklist legend="Group & organization" options={options} selected={['Organisation 150']} onToggle={onToggle} />);
    const group = screen.getByRole('group', { name: 'Group & organization' });
    // The first three plus the selected one that is further down.
    expect(within(group).getAllByRole('checkbox')).toHaveLength(4);
    fireEvent.click(within(group).getByRole('button', { name: 'See more' }));
    const rendered = within(screen.getByTestId('virtual-checklist')).getAllByRole('checkbox');
    expect(rendered.length).toBeGreaterThan(3);
    expect(rendered.length).toBeLessThan(options.length);
    fireEvent.click(within(group).getByLabelText('Organisation 001'));
    expect(onToggle).toHaveBeenCalledWith('Organisation 001');
  });
});
