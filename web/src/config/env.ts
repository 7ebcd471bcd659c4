/** Build-time settings, read once from Vite's `import.meta.env`. */
export const env = {
  /** Where API calls go; empty means the page's own origin. */
  apiUrl: (import.meta.env.VITE_API_URL as string | undefined) ?? '',
  /** A raster tile URL template for production maps; unset means the offline vector basemap. */
  tileUrl: (import.meta.env.VITE_TILE_URL as string | undefined) ?? '',
  tileAttribution: (import.meta.env.VITE_TILE_ATTRIBUTION as string | undefined) ?? '',
  supportEmail: (import.meta.env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@nearcare.example',
} as const;
