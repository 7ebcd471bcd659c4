/** A small map with a few clinic pins (profiles). Loaded lazily with Leaflet. */
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import { addBasemap, BASE_MAP_OPTIONS } from './basemap';
import { clinicPinIcon, nameMarker, onMarkerActivate } from './pin-icons';
import styles from './static-map.module.css';

export interface StaticMapMarker {
  lat: number;
  lng: number;
  name: string;
  accepting?: boolean;
  onActivate?: () => void;
}

interface StaticMapProps {
  markers: StaticMapMarker[];
  /** Zoom for a single marker (the clinician page uses 18). */
  zoom: number;
  label: string;
  height?: number;
}

export default function StaticMap({ markers, zoom, label, height = 260 }: StaticMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current!;
    const map = L.map(container, { ...BASE_MAP_OPTIONS, scrollWheelZoom: false });
    const removeBasemap = addBasemap(map);
    const layer = L.layerGroup().addTo(map);
    const points = markers.filter((marker) => Number.isFinite(marker.lat) && Number.isFinite(marker.lng));
    for (const point of points) {
      const marker = L.marker([point.lat, point.lng], { icon: clinicPinIcon(point.accepting ?? true), keyboard: true, title: point.name });
      if (point.onActivate) onMarkerActivate(marker, point.onActivate);
      marker.addTo(layer);
      nameMarker(marker, point.name);
    }
    if (points.length === 1) map.setView([points[0]!.lat, points[0]!.lng], zoom);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lng] as [number, number])), { padding: [40, 40], maxZoom: zoom });
    else map.setView([39.5, -98.35], 4);
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      removeBasemap();
      map.remove();
    };
  }, [markers, zoom]);

  return <div ref={containerRef} className={styles.map} style={{ height }} role="region" aria-label={label} />;
}
