// Leaflet as the maps use it, built from Leaflet's own modules (leaflet/src, the same 1.9.4
// release): the map with its default handlers and the zoom and attribution controls, markers and
// div icons, layer groups, grid and tile layers, popups and tooltips. Vector layers and their
// renderers, GeoJSON, image and video overlays, WMS and the layers and scale controls are left out
// of the download (about a third of Leaflet). vite.config.ts points `import L from 'leaflet'` here,
// so the code keeps Leaflet's types; a part not listed here is undefined at run time: add it here.
import { Map, createMap } from 'leaflet/src/map/Map';
import { BoxZoom } from 'leaflet/src/map/handler/Map.BoxZoom';
import { DoubleClickZoom } from 'leaflet/src/map/handler/Map.DoubleClickZoom';
import { Drag } from 'leaflet/src/map/handler/Map.Drag';
import { Keyboard } from 'leaflet/src/map/handler/Map.Keyboard';
import { ScrollWheelZoom } from 'leaflet/src/map/handler/Map.ScrollWheelZoom';
import { TapHold } from 'leaflet/src/map/handler/Map.TapHold';
import { TouchZoom } from 'leaflet/src/map/handler/Map.TouchZoom';
import { Control, control } from 'leaflet/src/control/Control';
import { Zoom, zoom } from 'leaflet/src/control/Control.Zoom';
import { Attribution, attribution } from 'leaflet/src/control/Control.Attribution';
import { Layer } from 'leaflet/src/layer/Layer';
import { LayerGroup, layerGroup } from 'leaflet/src/layer/LayerGroup';
import { FeatureGroup, featureGroup } from 'leaflet/src/layer/FeatureGroup';
import { Popup, popup } from 'leaflet/src/layer/Popup';
import { Tooltip, tooltip } from 'leaflet/src/layer/Tooltip';
import { Icon, icon } from 'leaflet/src/layer/marker/Icon';
import { IconDefault } from 'leaflet/src/layer/marker/Icon.Default';
import { DivIcon, divIcon } from 'leaflet/src/layer/marker/DivIcon';
import { Marker, marker } from 'leaflet/src/layer/marker/Marker';
import { GridLayer, gridLayer } from 'leaflet/src/layer/tile/GridLayer';
import { TileLayer, tileLayer } from 'leaflet/src/layer/tile/TileLayer';
import { LatLng, toLatLng } from 'leaflet/src/geo/LatLng';
import { LatLngBounds, toLatLngBounds } from 'leaflet/src/geo/LatLngBounds';
import { Point, toPoint } from 'leaflet/src/geometry/Point';
import { Bounds, toBounds } from 'leaflet/src/geometry/Bounds';
import * as DomEvent from 'leaflet/src/dom/DomEvent';
import * as DomUtil from 'leaflet/src/dom/DomUtil';
import * as Util from 'leaflet/src/core/Util';
import Browser from 'leaflet/src/core/Browser';

// As leaflet/src/map/index.js, control/index.js and layer/marker/index.js register them.
Object.assign(Map, { BoxZoom, DoubleClickZoom, Drag, Keyboard, ScrollWheelZoom, TapHold, TouchZoom });
Object.assign(Control, { Zoom, Attribution });
Object.assign(control, { zoom, attribution });
Icon.Default = IconDefault;

const L = {
  Map,
  map: createMap,
  Control,
  control,
  Layer,
  LayerGroup,
  layerGroup,
  FeatureGroup,
  featureGroup,
  Popup,
  popup,
  Tooltip,
  tooltip,
  Icon,
  icon,
  DivIcon,
  divIcon,
  Marker,
  marker,
  GridLayer,
  gridLayer,
  TileLayer,
  tileLayer,
  LatLng,
  latLng: toLatLng,
  LatLngBounds,
  latLngBounds: toLatLngBounds,
  Point,
  point: toPoint,
  Bounds,
  bounds: toBounds,
  DomEvent,
  DomUtil,
  Util,
  Browser,
};

export default L;
