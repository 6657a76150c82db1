/** What the render worker is asked (src/render/thread.ts): what renderFor takes, as one cloneable object. */
import type { PlatformId } from '../platform/ids.js';

export interface RenderRequest {
  platform: PlatformId;
  markdown: string;
  /** Terminal only: ANSI styling. */
  color?: boolean;
}
