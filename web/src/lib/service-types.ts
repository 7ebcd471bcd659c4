/**
 * The clinic service types the server sends as codes (`services[].serviceTypeCode`, the X12
 * 270/271 service type codes the seed uses: crates/seed/src/clinics.rs), with the names a member
 * reads. The pediatrics filter sends BH.
 */
export const SERVICE_TYPE_NAMES: Readonly<Record<string, string>> = {
  '30': 'Primary care',
  '98': 'Office visits',
  BH: 'Pediatric care',
  MH: 'Mental health',
  UC: 'Urgent care',
};

/** The member-facing name of a service type code; an unknown code is named as 'Service {code}'. */
export function serviceTypeName(code: string): string {
  const trimmed = code.trim();
  return SERVICE_TYPE_NAMES[trimmed.toUpperCase()] ?? `Service ${trimmed}`;
}
