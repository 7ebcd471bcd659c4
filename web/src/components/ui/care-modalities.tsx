import type { ComponentType } from 'react';
import { BriefcaseIcon, ChatIcon, ClinicIcon, HomeIcon, PhoneIcon, VideoIcon } from '@/components/icons/icons';
import styles from './care-modalities.module.css';

export interface CareModality {
  atClinic: boolean;
  atWork: boolean;
  inHome: boolean;
  phone: boolean;
  textChat: boolean;
  virtual: boolean;
}

type ModalityKey = keyof CareModality;

interface ModalityInfo {
  key: ModalityKey;
  label: string;
  hint: string;
  Icon: ComponentType<{ size?: number }>;
}

/** The six modalities in display order, with the spec's labels. */
export const MODALITIES: ModalityInfo[] = [
  { key: 'atClinic', label: 'At-clinic', hint: 'Face to face', Icon: ClinicIcon },
  { key: 'atWork', label: 'At-work', hint: 'See the provider at work when they are there', Icon: BriefcaseIcon },
  { key: 'inHome', label: 'In-home', hint: 'The provider comes to you', Icon: HomeIcon },
  { key: 'phone', label: 'Phone', hint: 'Talk by phone', Icon: PhoneIcon },
  { key: 'textChat', label: 'Text/Chat', hint: 'Message your care team', Icon: ChatIcon },
  { key: 'virtual', label: 'Virtual', hint: 'Video visit', Icon: VideoIcon },
];

/** Applies the rule that a virtual location hides At-clinic and shows In-home. */
export function displayedModalities(modality: CareModality, isVirtualLocation: boolean): CareModality {
  return isVirtualLocation ? { ...modality, atClinic: false, inHome: true } : modality;
}

/** The default when a clinic lists none: Virtual, Text/Chat, Phone and At-work, plus In-home or At-clinic. */
export function defaultModalities(homeCare: boolean): CareModality {
  return { virtual: true, textChat: true, phone: true, atWork: true, inHome: homeCare, atClinic: !homeCare };
}

interface CareModalitiesProps {
  modality: CareModality | null | undefined;
  isVirtualLocation?: boolean;
  homeCare?: boolean;
  /** `compact` shows small icon + label pills; `detailed` adds each modality's hint. */
  variant?: 'compact' | 'detailed';
}

export function CareModalities({ modality, isVirtualLocation = false, homeCare = false, variant = 'compact' }: CareModalitiesProps) {
  const anyListed = modality && Object.values(modality).some(Boolean);
  const shown = displayedModalities(anyListed ? modality! : defaultModalities(homeCare), isVirtualLocation);
  const offered = MODALITIES.filter((info) => shown[info.key]);
  return (
    <ul className={`${styles.list} ${variant === 'detailed' ? styles.detailed : ''}`} aria-label="Care modalities">
      {offered.map(({ key, label, hint, Icon }) => (
        <li key={key} className={styles.item}>
          <Icon size={variant === 'detailed' ? 20 : 14} />
          <span className={styles.label}>{label}</span>
          {variant === 'detailed' ? <span className={styles.hint}>{hint}</span> : null}
        </li>
      ))}
    </ul>
  );
}
