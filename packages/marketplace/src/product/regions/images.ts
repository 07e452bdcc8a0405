import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass } from '../../html/tags.ts';
import { fullSizeImage, isImageUrl, largestDynamicImage } from '../images.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

const IMAGE_REGIONS: readonly string[] = ['altImages', 'imageBlock', 'main-image-container', 'image-block', 'imgTagWrapperId'];

/** Ids of the main product image across layouts. */
export const MAIN_IMAGE_IDS: ReadonlySet<string> = new Set(['landingImage', 'imgBlkFront', 'main-image', 'ebooksImgBlkFront']);

/**
 * The main image and the gallery. A thumbnail that is a video, or the selected one (the main image
 * again), adds no image; video thumbnails are counted.
 */
export class ImagesRegion extends ContainerRegion {
  private thumb: { selected: boolean; video: boolean } | undefined;

  constructor(scan: PageScan) {
    super(scan, [...IMAGE_REGIONS, 'videoCount']);
  }

  override onId(id: string): void {
    if (id === 'videoCount') {
      // `6 VIDEOS` on the video thumbnail: more than the one thumbnail shows.
      this.scan.capture((text) => (this.scan.found.videoCountText ??= text.trim() || undefined));
      return;
    }
    super.onId();
    if (id === 'altImages') this.scan.found.gallery = true;
  }

  startTag(name: string, cls: string | undefined): void {
    if (this.depth > 0 && name === 'li') this.thumbTag(cls);
    else if (this.thumb && hasClass(cls, 'a-button-selected')) this.thumb.selected = true;
  }

  imgTag(tag: StartTag, id: string | undefined): void {
    const isMain = id !== undefined && MAIN_IMAGE_IDS.has(id);
    if (this.depth === 0 && !isMain) return;
    if (!isMain && (this.thumb?.video || this.thumb?.selected)) return;
    const dynamic = attr(tag, 'data-a-dynamic-image');
    const candidates = [attr(tag, 'data-old-hires'), attr(tag, 'data-a-hires'), dynamic === undefined ? undefined : largestDynamicImage(dynamic)];
    const best = candidates.find(isImageUrl) ?? attr(tag, 'src');
    if (!isImageUrl(best)) return;
    const url = fullSizeImage(best);
    if (isMain) this.scan.found.mainImage ??= url;
    else this.scan.found.images.push(url);
  }

  private thumbTag(cls: string | undefined): void {
    const started = { selected: false, video: hasClass(cls, 'videoThumbnail') || hasClass(cls, 'videoBlockIngress') };
    if (started.video) this.scan.found.videoThumbs++;
    this.thumb = started;
    this.scan.stack.onClose(() => {
      if (this.thumb === started) this.thumb = undefined;
    });
  }
}
