import type { DayEventKind } from '@spark/contracts';

/** The languages the reader understands; anything else is read as English and may stay unread. */
export type DayLanguage = 'en' | 'es' | 'fr' | 'de';

const words = (list: string) => new RegExp(String.raw`(?<![\p{L}])(?:${list})(?![\p{L}])`, 'iu');

// Small, common words only: enough to tell the languages apart in a few sentences.
const functionWords: Record<DayLanguage, RegExp> = {
  en: words('the|and|i|my|at|to|up|then|after|work|until|with'),
  es: words('el|los|las|y|de|mi|mis|me|por|con|luego|hasta|trabajo'),
  fr: words('le|les|et|je|mon|ma|mes|du|puis|avec|jusqu|travaille'),
  de: words('der|die|das|und|ich|um|mein|meine|bis|von|uhr|dann|mit'),
};

export function detectLanguage(text: string): DayLanguage {
  const tokens = text.split(/[\s,.;:!?()]+/u).filter(Boolean);
  let best: DayLanguage = 'en';
  let bestScore = 0;
  for (const language of Object.keys(functionWords) as DayLanguage[]) {
    const score = tokens.filter((token) => functionWords[language].test(token)).length;
    if (score > bestScore) [best, bestScore] = [language, score];
  }
  return best;
}

/** What each kind of moment is called in the languages read; the first match in a clause wins ties. */
const kindWords: Record<DayLanguage, Partial<Record<DayEventKind, RegExp>>> = {
  en: {
    wake: words(
      String.raw`wake|wakes|waking|woken|(?<!pick[- ]|set[- ]|catch[- ])up at|get up|gets? (?:me|us) up|wake us|alarm|rise|i'm up|am up|(?<!pick[- ])up by|out of bed`,
    ),
    sleep: words(String.raw`sleep|asleep|bed|lights out|bedtime|go down|turn in`),
    work: words(
      String.raw`work|works|working|shift|shifts|office|job|desk|meetings?|calls|clinic|ward|laptop|log off|log on|clock in|clock out|at the bank|restaurant|café|cafe|on duty|my day starts|start work|done at|finish`,
    ),
    meal: words(String.raw`breakfast|lunch|dinner|supper|meals?|eat|eating|snacks?|brunch|coffee`),
    exercise: words(String.raw`run|runs|running|jog|gym|train|training|swim|swimming|cycle|bike|ride|yoga|pilates|workout|hike|walk the dog|dog walk|walk`),
    family: words(
      String.raw`kids?|children|child|son|daughter|school run|drop-?off|pick-?up|daycare|nursery|bath|bathtime|bedtime story|toddlers?|twins|baby|family|partner|wife|husband|grandchildren`,
    ),
    care: words(String.raw`care for|caring|carer|caregiver|my mother|my mum|my mom|my father|my dad|meds|medication|appointments`),
    commute: words(String.raw`commute|commuting|train|bus|drive|driving|tube|subway|metro`),
    study: words(String.raw`lectures?|class|classes|library|study|studying|seminar|homework|revision|exams?`),
    screens: words(String.raw`scroll|scrolling|phone|tv|television|netflix|youtube|gaming|games|instagram|tiktok|screens?|series`),
    rest: words(String.raw`nap|couch|sofa|relax|newspaper|read|reading|garden|gardening|collapse`),
    travel: words(String.raw`flights?|fly|flying|airport|hotels?|travel|travelling|traveling|trip|on the road`),
  },
  es: {
    wake: words('me levanto|levantarme|me despierto|despertador|despierta'),
    sleep: words('me acuesto|acostarme|duermo|dormir|a la cama|me duermo'),
    work: words('trabajo|trabajar|oficina|turno|colegio|clase|clases|reuniones'),
    meal: words('desayuno|desayunar|almuerzo|comemos|como|ceno|cenamos|cena|comida|merienda|picar'),
    exercise: words('corro|correr|gimnasio|entreno|entrenar|camino|caminar|nado'),
    family: words('hijos|hijo|hija|niños|niñas|recojo|familia|pareja'),
    commute: words('metro|autobús|coche|tren'),
    screens: words('móvil|movil|tele|televisión|series|redes'),
  },
  fr: {
    wake: words('me lève|lever|réveil|réveille|debout'),
    sleep: words('me couche|coucher|dors|dormir|au lit'),
    work: words('travail|travaille|bureau|boulot|garde|réunions'),
    meal: words('petit-déjeuner|déjeuner|déjeune|dîner|dîne|goûter|repas|grignote'),
    exercise: words('course|cours|courir|salle|sport|vélo|marche'),
    family: words('enfants|école|crèche|famille|fils|fille'),
    commute: words('métro|train|bus|voiture|trajet'),
    screens: words('téléphone|télé|écran|écrans|séries'),
  },
  de: {
    wake: words('stehe|aufstehen|wecker|wach|aufwachen'),
    sleep: words('bett|schlafe|schlafen|ins bett'),
    work: words('arbeit|arbeite|arbeiten|büro|schicht|dienst|besprechungen'),
    meal: words('frühstück|frühstücke|mittag|mittagessen|abendessen|esse|essen'),
    exercise: words('laufen|joggen|training|fitness|sport|rad|spaziergang'),
    family: words('kinder|kind|kita|schule|familie|sohn|tochter'),
    commute: words('bahn|zug|bus|auto|pendeln'),
    screens: words('handy|fernsehen|fernseher|serien|bildschirm'),
  },
};

/** The kinds a clause talks about, each with where its word sits, in the order written. */
export interface KindWord {
  kind: DayEventKind;
  index: number;
  word: string;
}

/** The kinds a clause talks about, each with the word that says so and where it sits, in the order written. */
export function kindsIn(clause: string, language: DayLanguage): KindWord[] {
  const found: KindWord[] = [];
  for (const [kind, pattern] of Object.entries(kindWords[language]) as [DayEventKind, RegExp][]) {
    const match = pattern.exec(clause);
    if (match) found.push({ kind, index: match.index, word: match[0] });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Words that make a time the end of a block: "until 6", "log off at 6", "home by 7". */
export const endWords = words(
  String.raw`until|till|til|log off|logging off|clock out|finish|finishes|done at|leave work|home by|home at|get home|hasta|salgo|jusqu'à|bis|feierabend`,
);

/** Days off, described in so many words: the clause is about another day than the working one. */
export const daysOffWords = words(
  String.raw`weekends?|days? off|off days?|nights? off|rest days?|saturdays?|sundays?|fines? de semana|días libres|dias libres|week-ends?|jours? de repos|wochenende|wochenenden|freie tage|freien tagen`,
);
/** "three nights a week": the other days are days off even if the client never says so. */
export const partWeekWords = /\b(one|two|three|four|five|six|1|2|3|4|5|6)\s+(?:nights?|days?|shifts?)\s+(?:a|per|each)\s+week\b/i;
export const rotatingWords = words(
  String.raw`rotating|rotation|rotas?|some weeks|other weeks|alternate|alternating|shifts change|changing shifts|every third week|turnos rotativos|schichtdienst|wechselschicht`,
);
export const nightWords = words(String.raw`night shifts?|nights|nightshift|noche|nuit|nachtschicht|nachtdienst`);
export const retiredWords = words(String.raw`retired|retiree|retirement|pension|jubilado|jubilada|retraité|retraitée|rentner|rentnerin|ruhestand`);
