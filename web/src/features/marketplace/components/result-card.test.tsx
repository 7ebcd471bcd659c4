import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { clinicianItem, clinicItem } from '@/test/fixtures';
import { testQueryClient } from '@/test/render';
import { cardAction, ENTITY_LABELS, entityLabel, type MemberCardState } from '../utils/card-action';
import { ResultCard } from './result-card';


function renderCard(item = clinicItem(), member: MemberCardState | null = null) {
  const onAction = vi.fn();
  const onOpenDetails = vi.fn();
  // A virtual network's Check asks the clinic's profile through the query cache.
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ResultCard item={item} action={cardAction(item, member)} onAction={onAction} onOpenDetails={onOpenDetails} onHomeZipCode={vi.fn()} />
    </QueryClientProvider>,
  );
  return { onAction, onOpenDetails };
}

describe('ResultCard', () => {
  it('truncates the name at 20 characters and the address at 19', () => {
    renderCard();
    expect(screen.getByRole('button', { name: /^Mile High Direct Pri\.\.\. ?— ?Downtown$/ })).toBeTruthy();
    expect(screen.getByTestId('address').textContent).toBe('1600 Champa Street...');
  });

  it('keeps short names and addresses whole', () => {
    renderCard(clinicItem({ name: 'Short Clinic', address: '12 Main St' }));
    expect(screen.getByRole('button', { name: /^Short Clinic ?— ?Downtown$/ })).toBeTruthy();
    expect(screen.getByTestId('address').textContent).toBe('12 Main St');
  });

  it('shows the distance in miles with two decimals', () => {
    renderCard(clinicItem({ distance: 3.14159 }));
    expect(screen.getByTestId('distance').textContent).toBe('3.14 miles');
  });

  it('labels each entity type with its own colour', () => {
    const labels = [
      entityLabel(clinicItem()),
      entityLabel(clinicItem({ isVirtualLocation: true })),
      entityLabel(clinicianItem()),
      entityLabel({ entity: 'vendor', isVirtualLocation: false }),
    ];
    expect(labels.map((l) => l.label)).toEqual(['Clinic & Organization', 'Virtual Network', 'Clinician', 'Point Solution Vendor']);
    expect(new Set(labels.map((l) => l.color)).size).toBe(4);

    renderCard(clinicianItem());
    const label = screen.getByTestId('entity-label');
    expect(label.textContent).toBe('Clinician');
    expect(label.style.color).toBe('rgb(28, 107, 69)');
    expect(ENTITY_LABELS.clinician.color).toBe('#1c6b45');
  });

  it('shows availability, speciality, gender and Works at for clinicians', () => {
    renderCard(clinicianItem());
    const card = screen.getByTestId('result-card');
    expect(within(card).getByText('Accepting new patients')).toBeTruthy();
    expect(within(card).getByText('Family Medicine')).toBeTruthy();
    expect(within(card).getByText('Female')).toBeTruthy();
    expect(within(card).getByText('Works at')).toBeTruthy();
    expect(within(card).getByText('Mile High Direct Primary Care')).toBeTruthy();
  });

  it('lists care modalities with the spec labels and the virtual rule', () => {
    renderCard(clinicItem({ isVirtualLocation: true, distance: null }));
    const modalities = screen.getByRole('list', { name: 'Care modalities' });
    const labels = within(modalities).getAllByRole('listitem').map((item) => item.textContent);
    expect(labels).toEqual(['In-home', 'Phone', 'Text/Chat', 'Virtual']);
    expect(screen.getByLabelText('Home zip code')).toBeTruthy();
  });

  it('falls back to initials when there is no logo', () => {
    renderCard(clinicItem({ logo: '' }));
    expect(screen.getByTestId('logo-initials').textContent).toBe('MC');
  });

  it('offers Select for accepting clinics and Join the waitlist otherwise (signed out)', () => {
    const { onAction } = renderCard();
    screen.getByRole('button', { name: 'Select Mile High Direct Primary Care — Downtown' }).click();
    expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ id: 10 }), expect.objectContaining({ kind: 'select' }));
  });

  it('offers View Details for clinicians', () => {
    renderCard(clinicianItem());
    expect(screen.getAllByRole('button', { name: 'View details of Dr. Alexandra Montgomery-Smith' })).toHaveLength(1);
  });

  it('shows the location name whole beside a cut organisation name, and names the buttons after both', () => {
    renderCard(clinicItem({ name: 'Front Range Direct Primary Care', locationName: 'Cherry Creek', newPatients: false }));
    expect(screen.getByTestId('location-name').textContent).toBe('Cherry Creek');
    expect(screen.getByRole('article', { name: 'Front Range Direct Primary Care — Cherry Creek' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Join the waitlist Front Range Direct Primary Care — Cherry Creek' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'View details of Front Range Direct Primary Care — Cherry Creek' })).toBeTruthy();
  });
});

describe('cardAction', () => {
  const accepting = { entity: 'location' as const, locationId: 100, newPatients: true };
  const closed = { ...accepting, newPatients: false };

  it('picks the button by member state', () => {
    expect(cardAction(accepting, null).label).toBe('Select');
    expect(cardAction(closed, null).label).toBe('Join the waitlist');
    expect(cardAction({ ...accepting, entity: 'provider' }, null).label).toBe('View Details');
    expect(cardAction({ ...accepting, entity: 'vendor' }, null).label).toBe('View Details');
    expect(cardAction(accepting, { nextStep: 'confirmPlan', subscriptionStatus: null, locationId: 100 }).label).toBe('Confirm eligibility');
    expect(cardAction(accepting, { nextStep: 'complete', subscriptionStatus: 'pending', locationId: 100 }).label).toBe('Pending Membership');
    expect(cardAction(accepting, { nextStep: 'complete', subscriptionStatus: 'active', locationId: 100 }).label).toBe('Active Membership');
    // The clinic activated the membership before the member confirmed eligibility.
    expect(cardAction(accepting, { nextStep: 'confirmPlan', subscriptionStatus: 'active', locationId: 100 }).label).toBe('Active Membership');
    expect(cardAction(accepting, { nextStep: 'complete', subscriptionStatus: 'active', locationId: 999 }).label).toBe('Select');
    expect(cardAction(accepting, { nextStep: 'complete', subscriptionStatus: 'active', locationId: 100 }).disabled).toBe(true);
  });

  it('shows a joined waitlist as a state, not as the button again', () => {
    expect(cardAction(closed, null, true)).toEqual({ kind: 'waitlisted', label: 'On the waitlist', disabled: true });
    expect(cardAction(accepting, null, true).label).toBe('Select');
  });
});
