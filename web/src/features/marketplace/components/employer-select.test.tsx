import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
import { EmployerSelect } from './employer-select';

const EMPLOYERS = [
  { id: 1, companyName: 'Acme Corporation', status: 'active' },
  { id: 2, companyName: 'Globex Industries', status: 'inactive' },
];

describe('EmployerSelect', () => {
  it('uses the spec texts and lists matching employers', async () => {
    mockFetch((url) => {
      if (url.pathname !== '/member/app/potential/employers') return undefined;
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      return { body: EMPLOYERS.filter((employer) => employer.companyName.toLowerCase().startsWith(search)) };
    });
    const onChange = vi.fn();
    renderWithProviders(<EmployerSelect employer={null} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Select your employer/ });
    fireEvent.click(trigger);
    expect(screen.getByPlaceholderText('Search employer here')).toBeTruthy();
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Corporation' }));
    expect(onChange).toHaveBeenCalledWith(EMPLOYERS[0]);
  });

  it("says 'No employer found' when nothing matches", async () => {
    mockFetch((url) => (url.pathname === '/member/app/potential/employers' ? { body: [] } : undefined));
    renderWithProviders(<EmployerSelect employer={null} onChange={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: /Select your employer/ }));
    fireEvent.change(screen.getByPlaceholderText('Search employer here'), { target: { value: 'zzz' } });
    expect(await screen.findByText('No employer found')).toBeTruthy();
  });

  it('shows the chosen employer', () => {
    mockFetch(() => ({ body: [] }));
    renderWithProviders(<EmployerSelect employer={{ id: 1, companyName: 'Acme Corporation', status: 'active' }} onChange={vi.fn()} />);
    expect(screen.getByRole('button', { name: /Acme Corporation/ })).toBeTruthy();
  });
});
