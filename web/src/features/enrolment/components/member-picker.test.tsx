import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { selectedDependent } from '@/lib/storage';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, renderWithProviders, signIn } from '@/test/render';
import { MemberPicker, pickerOptions } from './member-picker';

const family = [{ id: 22, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse' as const, location: null, subscription: null }];

describe('MemberPicker', () => {
  it('lists the subscriber and the family with their providers', () => {
    expect(pickerOptions(memberFixture({ family }))).toEqual([
      { dependentId: null, label: 'Jane Doe (you) — Front Range Direct Primary Care' },
      { dependentId: 22, label: 'John Doe — Needs a provider' },
    ]);
  });

  it('chooses the member Select enrols, and back', async () => {
    signIn();
    mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture({ family }) } : undefined));
    renderWithProviders(<MemberPicker />);
    const select = (await screen.findByLabelText('Choosing a provider for')) as HTMLSelectElement;
    expect(select.value).toBe('self');
    fireEvent.change(select, { target: { value: '22' } });
    expect(selectedDependent.get()).toBe(22);
    expect(select.value).toBe('22');
    fireEvent.change(select, { target: { value: 'self' } });
    expect(selectedDependent.get()).toBeNull();
  });

  it('is not shown without family, or to a member who is not the subscriber', async () => {
    signIn();
    mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture({ subscriberRelation: 'Spouse', family }) } : undefined));
    renderWithProviders(<MemberPicker />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByLabelText('Choosing a provider for')).toBeNull();
  });
});
