import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { use, useCallback, useEffect, useState } from 'react';
import { classNames } from '../../../ui/class-names';
import { Icon } from '../../../ui/icon';
import { ditlSlidesFolder, fetchDitlSlides, type DitlSlide } from './ditl-slides';

const autoAdvanceMs = 4000;

function SlideTrack({ slides }: { slides: DitlSlide[] }) {
  const [viewportRef, embla] = useEmblaCarousel({ loop: true, align: 'center' }, [
    Autoplay({ delay: autoAdvanceMs, stopOnInteraction: false, stopOnMouseEnter: true }),
  ]);
  const [selectedIndex, setSelectedIndex] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelectedIndex(embla.selectedScrollSnap());
    embla.on('select', onSelect);
    return () => {
      embla.off('select', onSelect);
    };
  }, [embla]);

  const goTo = useCallback((index: number) => embla?.scrollTo(index), [embla]);
  const arrowClasses =
    'absolute top-1/2 z-10 hidden -translate-y-1/2 rounded-full bg-white/90 p-2 text-ink-950 shadow-soft hover:bg-white focus-visible:outline-3 focus-visible:outline-spark-500 sm:inline-flex';

  return (
    <div role="region" aria-roledescription="carousel" aria-label="A day in the life with Spark" data-selected-index={selectedIndex} className="relative">
      <div ref={viewportRef} className="overflow-hidden">
        <ul className="flex touch-pan-y">
          {slides.map((slide, index) => (
            <li
              key={slide.src}
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${slides.length}`}
              className="min-w-0 shrink-0 grow-0 basis-[88%] px-2 sm:basis-[70%] lg:basis-[60%]"
            >
              <img
                src={slide.src}
                alt={slide.alt}
                width={slide.width}
                height={slide.height}
                loading="lazy"
                decoding="async"
                className={classNames(
                  'h-auto w-full rounded-2xl shadow-2xl ring-1 ring-white/15 transition-opacity',
                  index === selectedIndex ? 'opacity-100' : 'opacity-60',
                )}
              />
            </li>
          ))}
        </ul>
      </div>
      <button type="button" aria-label="Previous slide" onClick={() => embla?.scrollPrev()} className={classNames(arrowClasses, 'left-3')}>
        <Icon name="arrow" className="size-5 rotate-180" />
      </button>
      <button type="button" aria-label="Next slide" onClick={() => embla?.scrollNext()} className={classNames(arrowClasses, 'right-3')}>
        <Icon name="arrow" className="size-5" />
      </button>
      <div className="mt-6 flex justify-center gap-1">
        {slides.map((slide, index) => (
          <button
            key={slide.src}
            type="button"
            aria-label={`Go to slide ${index + 1}`}
            aria-current={index === selectedIndex ? 'true' : undefined}
            onClick={() => goTo(index)}
            className="flex size-6 items-center justify-center rounded-full focus-visible:outline-3 focus-visible:outline-spark-500"
          >
            <span className={classNames('block h-2 rounded-full transition-all', index === selectedIndex ? 'w-6 bg-spark-500' : 'w-2 bg-slate-300')} />
          </button>
        ))}
      </div>
    </div>
  );
}

// Asked once per page load: the slides folder does not change while someone reads the page.
let slides: Promise<DitlSlide[]> | undefined;

/** The "Day in the Life" slides, auto-advancing every 4 s, looping and centred (suspends while the list loads). */
export default function DitlSlides() {
  const loaded = use((slides ??= fetchDitlSlides().catch(() => [])));
  if (!loaded.length) {
    return <p className="rounded-2xl bg-white/5 py-16 text-center text-slate-300">No images found in {ditlSlidesFolder} folder</p>;
  }
  return <SlideTrack slides={loaded} />;
}
