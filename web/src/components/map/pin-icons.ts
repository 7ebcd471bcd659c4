import L from 'leaflet';

/** Pin size from the spec: 40 by 60. */
export const PIN_SIZE: [number, number] = [40, 60];
export const PIN_COLORS = { accepting: '#1a3e8c', closed: '#4a5563' } as const;

/** The favourite mark inside a pin: a red heart on the white disc. */
const FAVORITE_MARK = '<circle cx="20" cy="20" r="10" fill="#fff"/><path d="M20 27s-6.5-3.9-7.9-7.8a3.9 3.9 0 0 1 7.9-2.3 3.9 3.9 0 0 1 7.9 2.3C26.5 23.1 20 27 20 27z" fill="#c62828"/>';

function pinSvg(color: string, favorite: boolean): string {
  const centre = favorite ? FAVORITE_MARK : '<circle cx="20" cy="20" r="7" fill="#fff"/>';
  return `<svg width="40" height="60" viewBox="0 0 40 60" aria-hidden="true" focusable="false"><path d="M20 59C20 59 38 34 38 20A18 18 0 0 0 2 20C2 34 20 59 20 59Z" fill="${color}" stroke="#fff" stroke-width="2.5"/>${centre}</svg>`;
}

const icons = new Map<string, L.DivIcon>();

/** The clinic pin: dark blue when accepting new patients, dark grey otherwise; a heart marks a favourite. */
export function clinicPinIcon(accepting: boolean, favorite = false): L.DivIcon {
  const state = accepting ? 'accepting' : 'closed';
  const key = favorite ? `${state}-favorite` : state;
  let icon = icons.get(key);
  if (!icon) {
    icon = L.divIcon({
      className: `nc-pin nc-pin-${state}${favorite ? ' nc-pin-favorite' : ''}`,
      html: pinSvg(accepting ? PIN_COLORS.accepting : PIN_COLORS.closed, favorite),
      iconSize: PIN_SIZE,
      iconAnchor: [20, 58],
      popupAnchor: [0, -54],
    });
    icons.set(key, icon);
  }
  return icon;
}

/** A cluster bubble's diameter for its count. */
export function areaIconSize(count: number): number {
  return count >= 1000 ? 60 : count >= 100 ? 52 : count >= 10 ? 44 : 36;
}

/**
 * A cluster bubble with the number of clinics in an area, centred on its point; `onTip` sets it on
 * the point the way a pin stands (clusters drawn among pins).
 */
export function areaIcon(count: number, accepting: boolean, onTip = false): L.DivIcon {
  const size = areaIconSize(count);
  const text = count >= 10_000 ? `${Math.round(count / 1000)}k` : String(count);
  return L.divIcon({
    className: `nc-area ${accepting ? 'nc-area-accepting' : 'nc-area-closed'}`,
    html: `<span aria-hidden="true">${text}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, onTip ? size : size / 2],
  });
}

/** The 'You are here' dot: a picture only (its visible label, a tooltip, is what is read). */
export function hereIcon(): L.DivIcon {
  return L.divIcon({ className: 'nc-here', html: '<span aria-hidden="true"></span>', iconSize: [22, 22], iconAnchor: [11, 11] });
}

/** Gives a marker's element an accessible name (Leaflet already makes it a focusable button). */
export function nameMarker(marker: L.Marker, name: string): void {
  const element = marker.getElement();
  if (element) {
    element.setAttribute('aria-label', name);
    element.setAttribute('role', 'button');
    element.setAttribute('tabindex', '0');
  }
}

/** Runs `action` on click and on Enter or Space while the marker has keyboard focus. */
export function onMarkerActivate(marker: L.Marker, action: () => void): void {
  marker.on('click', action);
  marker.on('add', () => {
    marker.getElement()?.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        action();
      }
    });
  });
}
