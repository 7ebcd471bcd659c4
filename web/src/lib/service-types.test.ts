import { serviceTypeName } from './service-types';

describe('serviceTypeName', () => {
  it('names the codes the catalogue uses', () => {
    expect(['30', '98', 'BH', 'MH', 'UC'].map(serviceTypeName)).toEqual(['Primary care', 'Office visits', 'Pediatric care', 'Mental health', 'Urgent care']);
  });

  it('reads codes regardless of case and spacing, and names an unknown code without hiding it', () => {
    expect(serviceTypeName(' bh ')).toBe('Pediatric care');
    expect(serviceTypeName('A7')).toBe('Service A7');
  });
});
