import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, renderWithProviders, signIn } from '@/test/render';
import { sessionValue, storedEmployer } from '@/lib/storage';
import { EmployerConfirmationDialog, EmployerNeededDialog } from './employer-needed-dialog';
import { EmployerBanner } from './employer-banner';
import { MarketplacePage } from './marketplace-page';

const ACME = { id: 1, companyName: 'Acme Corporation', status: 'active' };
const GLOBEX = { id: 2, companyName: 'Globex Industries', status: 'inactive' };

function employersOnly() {
  return mockFetch((url) => (url.pathname === '/member/app/potential/employers' ? { body: [ACME, GLOBEX] } : undefined));
}

async function choose(scope: HTMLElement, name: string) {
  fireEvent.click(within(scope).getByRole('button', { name: /Select your employer|Employer/ }));
  fireEvent.click(await within(scope).findByRole('option', { name: new RegExp(`^${name}`) }));
}

// The marketplace map (lazy) measures itself; jsdom has no ResizeObserver.
vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });

describe('EmployerNeededDialog', () => {
  it("an employer that offers the benefit is confirmed with 'Perfect! ... Find My Provider', which carries on", async () => {
    employersOnly();
    const onChosen = vi.fn();
    renderWithProviders(<EmployerNeededDialog open onClose={vi.fn()} onChosen={onChosen} />);
    await choose(screen.getByRole('dialog', { name: 'Who is your employer?' }), 'Acme Corporation');
    const verified = await screen.findByRole('dialog', { name: 'Perfect!' });
    expect(verified.textContent).toContain('Acme Corporation is participating and will pay up to 100% of the benefit.');
    expect(onChosen).not.toHaveBeenCalled();
    fireEvent.click(within(verified).getByRole('button', { name: 'Find My Provider' }));
    expect(onChosen).toHaveBeenCalledWith(ACME);
  });

  it('an employer that does not offer it yet carries on at once (the banner says so)', async () => {
    employersOnly();
    const onChosen = vi.fn();
    renderWithProviders(<EmployerNeededDialog open onClose={vi.fn()} onChosen={onChosen} />);
    await choose(screen.getByRole('dialog', { name: 'Who is your employer?' }), 'Globex Industries');
    expect(onChosen).toHaveBeenCalledWith(GLOBEX);
    expect(screen.queryByRole('dialog', { name: 'Perfect!' })).toBeNull();
  });
});

describe('EmployerConfirmationDialog', () => {
  it('Confirm waits for a choice, then Perfect! and Find My Provider', async () => {
    employersOnly();
    const onChosen = vi.fn();
    renderWithProviders(<EmployerConfirmationDialog open current={null} onClose={vi.fn()} onChosen={onChosen} />);
    const dialog = screen.getByRole('dialog', { name: 'Employer Confirmation' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await choose(dialog, 'Acme Corporation');
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Perfect!' })).getByRole('button', { name: 'Find My Provider' }));
    expect(onChosen).toHaveBeenCalledWith(ACME);
  });

  it("offers the marketplace's current employer", () => {
    employersOnly();
    renderWithProviders(<EmployerConfirmationDialog open current={{ id: 1, companyName: 'Acme Corporation', status: 'active' }} onClose={vi.fn()} onChosen={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Employer Confirmation' });
    expect(within(dialog).getByRole('button', { name: /Acme Corporation/ })).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('the marketplace and a signed-in member without an employer', () => {
  function renderMarketplace(member: ReturnType<typeof memberFixture>) {
    signIn();
    mockFetch((url) => {
      if (url.pathname === '/member/app/member/info') return { body: member };
      if (url.pathname === '/member/app/potential/employers') return { body: [ACME, GLOBEX] };
      return undefined;
    });
    return renderWithProviders(<MarketplacePage />);
  }

  it('asks for the Employer Confirmation, then Perfect!, and the marketplace takes the employer', async () => {
    renderMarketplace(memberFixture({ employer: null, employerId: null, companyName: 'Acme Corp' }));
    // The dialog's code loads when it first opens.
    const dialog = await screen.findByRole('dialog', { name: 'Employer Confirmation' }, { timeout: 5000 });
    await choose(dialog, 'Acme Corporation');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Perfect!' })).getByRole('button', { name: 'Find My Provider' }));
    expect((await screen.findByTestId('employer-banner')).textContent).toContain('Acme Corporation is participating');
    expect(storedEmployer.get()).toEqual(ACME);
    expect(sessionValue.get('employerConfirmed')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Employer Confirmation|Perfect!/ })).toBeNull());
  });

  it('asks once a visit: closing it counts as an answer', async () => {
    sessionValue.set('employerConfirmed', true);
    renderMarketplace(memberFixture({ employer: null, employerId: null }));
    await screen.findByRole('heading', { level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog', { name: 'Employer Confirmation' })).toBeNull();
  });

  it('does not ask a member whose account names an employer', async () => {
    renderMarketplace(memberFixture());
    expect((await screen.findByTestId('employer-banner', {}, { timeout: 5000 })).textContent).toContain('Acme Corporation');
    expect(screen.queryByRole('dialog', { name: 'Employer Confirmation' })).toBeNull();
  });
});

describe('EmployerBanner', () => {
  it('promises a representative only through a request that records it (Notify Me, or choosing a clinic)', () => {
    renderWithProviders(<EmployerBanner employer={{ id: 3, companyName: 'Globex Industries', status: 'inactive' }} />);
    expect(screen.getByTestId('employer-banner').textContent).toBe(
      'Globex Industries is not yet participating. Ask for the benefit (Notify Me when you register, or by choosing a clinic) and a representative will contact the company.',
    );
  });
});
