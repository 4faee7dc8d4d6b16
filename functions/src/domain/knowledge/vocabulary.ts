/**
 * Customer vocabulary of small businesses (clinics, restaurants, shops, rentals), in Spanish and
 * English: what lets the keyword half (and the absolute relevance built on it) meet a question
 * worded differently from the owner's documents — "¿se puede aparcar?" against "parking gratuito",
 * "soy celíaca" against the allergen table's "Gluten", "a plazos" against "12 meses sin intereses".
 * The local deterministic embedding cannot bridge those, and a real embedding only does so in the
 * cosine, which weighs 0.3 of the relevance.
 *
 *   concepts  rings of words one customer uses for what another document calls otherwise; every
 *             word of a ring is analysed as the ring's term (as the price/hours/place intents are),
 *             so the question and the passage meet whatever the wording
 *   phrases   multi-word forms of a concept ("flat tyre", "somos 14", "sin intereses"); the phrase is
 *             one term and its words are not counted on their own
 *   weak      words that carry the customer's situation or the sentence's grammar rather than the
 *             topic ("normal", "cerca", "todavía", "whole", "take"), and numbers the documents do not
 *             hold ("tiene 15 años"): they count a quarter in the absolute relevance, so a missing
 *             filler word no longer sinks a question whose topic the passage holds, while a missing
 *             topic word ("wifi", "zirconio") still does
 *
 * Words are folded (no accents, lower case). A ring lists the inflections customers type; the
 * analysis also looks a ring up by the word's stem. Rings stay general (no business's own terms)
 * and are measured on the graded set AND on the blind held-out set (bench-knowledge-eval), so a
 * ring that only fits the graded questions shows there as no gain.
 */
import type { KnowledgeLanguage } from './ports.js';

/** Concept terms start with "_" (not a word of either language, as the intent terms). */
const RINGS: Record<string, { es: string; en: string }> = {
  _parking: {
    // The customer's car is what they ask to park ("voy en coche", "I'm coming by car").
    es: 'aparcar aparco aparca aparcamos aparcamiento aparcamientos parking parkings estacionar estaciono estacionamiento estacionamientos garaje garajes coche coches auto autos carro',
    en: 'parking carpark carparks garage garages car cars',
  },
  _instalments: {
    es: 'plazos plazo financiacion financiar financiamos financiado financiada fraccionar fraccionado fraccionamos cuotas cuota mensualidades mensualidad aplazar aplazado',
    en: 'instalments installments instalment installment finance financing financed',
  },
  _child: {
    es: 'nino nina ninos ninas hijo hija hijos hijas menor menores infantil infantiles crio crios peque peques pequeno pequena pequenos pequenas bebe bebes chaval chavales adolescente adolescentes',
    en: 'child children kid kids son sons daughter daughters minor minors baby babies toddler toddlers teen teens teenager teenagers infant infants',
  },
  _gluten: { es: 'gluten celiaco celiaca celiacos celiacas celiaquia trigo', en: 'gluten coeliac celiac coeliacs celiacs wheat' },
  _dairy: { es: 'lactosa lacteo lacteos lactea lacteas leche', en: 'lactose dairy milk' },
  _allergy: {
    es: 'alergia alergias alergico alergica alergicos alergicas alergeno alergenos intolerancia intolerancias intolerante intolerantes',
    en: 'allergy allergies allergic allergen allergens intolerance intolerances intolerant',
  },
  _vegan: {
    es: 'vegano vegana veganos veganas vegetariano vegetariana vegetarianos vegetarianas',
    en: 'vegan vegans vegetarian vegetarians veggie',
  },
  _deposit: { es: 'senal senales fianza fianzas deposito depositos anticipo anticipos prepago', en: 'deposit deposits' },
  _cancel: {
    es: 'cancelar cancelo cancela cancelamos cancelan cancelacion cancelaciones cancelado cancelada anular anulo anula anulamos anulacion anulaciones anulado anulada',
    en: 'cancel cancels cancelled canceled cancelling canceling cancellation cancellations',
  },
  _refund: {
    es: 'devolver devuelvo devuelve devuelven devolveis devolvemos devolucion devoluciones devuelto reembolso reembolsos reembolsar reembolsamos reintegro',
    en: 'refund refunds refunded refundable reimburse reimbursed reimbursement',
  },
  _return: { es: '', en: 'return returns returned returning drop' },
  _urgent: {
    es: 'urgencia urgencias urgente urgentes emergencia emergencias',
    en: 'emergency emergencies urgent urgency',
  },
  _phone: {
    es: 'telefono telefonos llamar llamo llama llamamos llamada llamadas movil moviles numero numeros',
    en: 'phone phones telephone call calls calling number numbers',
  },
  _insurance: {
    es: 'seguro seguros aseguradora aseguradoras mutua mutuas poliza polizas asegurado asegurados',
    en: 'insurance insured insurer insurers waiver cover coverage',
  },
  _discount: {
    es: 'descuento descuentos rebaja rebajas oferta ofertas promocion promociones bonificacion',
    en: 'discount discounts discounted offer offers deal deals promotion promotions reduction',
  },
  _group: { es: 'grupo grupos', en: 'group groups together' },
  _week: { es: 'semana semanas semanal', en: 'week weeks weekly' },
  _holiday: {
    es: 'vacaciones vacacion verano festivo festivos',
    en: 'holiday holidays vacation vacations summer',
  },
  _dinner: { es: 'cena cenas cenar ceno cenamos', en: 'dinner dinners supper' },
  _lunch: { es: 'comida comidas comer almuerzo almuerzos almorzar mediodia', en: 'lunch lunches lunchtime midday' },
  _booking: {
    es: 'reserva reservas reservar reservo reservamos reservacion reservaciones reservado reservada cita citas turno turnos',
    en: 'booking bookings book booked reserve reserved reservation reservations appointment appointments',
  },
  _visit: {
    es: 'consulta consultas visita visitas revision revisiones chequeo chequeos',
    en: 'visit visits consultation consultations checkup checkups',
  },
  _pain: {
    es: 'dolor dolores duele duelen doler dolorosa doloroso molestia molestias sensibilidad',
    en: 'pain painful hurt hurts sore sensitivity',
  },
  _pet: { es: 'perro perros perrito mascota mascotas gato gatos', en: 'dog dogs pet pets cat cats' },
  _electric: { es: 'electrica electricas electrico electricos ebike ebikes', en: 'electric ebike ebikes' },
  _puncture: { es: 'pinchazo pinchazos pinchar pinchado pinchada', en: 'puncture punctures punctured' },
  _damage: {
    es: 'dano danos danado danada roto rota rotos rotas rotura roturas romper rompo rompe averia averias',
    en: 'damage damages damaged broken break breaks breakage',
  },
  _delay: { es: 'retraso retrasos retrasar retrasado retrasada', en: 'late lateness delay delays delayed' },
  _access: {
    es: 'accesible accesibles accesibilidad ascensor ascensores rampa rampas',
    en: 'wheelchair wheelchairs accessible accessibility lift lifts elevator elevators ramp ramps',
  },
  _wifi: { es: 'wifi internet', en: 'wifi internet' },
  _takeaway: { es: 'domicilio reparto', en: 'takeaway takeout delivery deliveries' },
  _student: { es: 'estudiante estudiantes universitario universitarios universitaria', en: 'student students' },
  _senior: { es: 'jubilado jubilados jubilada jubiladas pensionista pensionistas', en: 'senior seniors pensioner pensioners retired' },
  _rain: { es: 'lluvia lluvias llueve llover lloviendo', en: 'rain rains raining rainy' },
  _theft: { es: 'robo robos robada robado robar perdida perdido', en: 'stolen theft steal lost' },
  _guide: { es: 'guia guias guiado guiada guiados guiadas excursion excursiones', en: 'guide guides guided tour tours excursion excursions' },
  _age: { es: 'edad edades', en: 'age ages aged older younger' },
  // Shoe and clothes shops: "calzo un 44" asks for the size the documents call "talla".
  _size: { es: 'talla tallas calzo calzas calza calzan', en: '' },
  _accompanied: {
    es: 'acompanado acompanada acompanados acompanadas acompanante acompanantes acompanar adulto adultos tutor tutores',
    en: 'accompanied accompany unaccompanied adult adults guardian guardians',
  },
};

/** Multi-word forms (no capturing groups: they are joined into one pattern). */
const PHRASES: { pattern: RegExp; term: string }[] = [
  // Party size: "somos 14", "we are 8", "8 of us", "para 6 personas".
  { pattern: /\b(?:somos|seremos|we are|we're|party of)\s+\d+\b/g, term: '_group' },
  { pattern: /\b\d+\s+(?:personas|comensales|adultos|people|persons|adults|of us)\b/g, term: '_group' },
  // An age: "15 años", "4 añitos", "14 year old", "16 years".
  { pattern: /\b\d+\s+(?:anos|anitos)\b|\b\d+[\s-]*years?(?:[\s-]*old)?\b/g, term: '_age' },
  // Alone: "on my own", "on your own".
  { pattern: /\bon\s+(?:my|your|his|her|their|our)\s+own\b/g, term: '_accompanied' },
  { pattern: /\b(?:7|siete)\s+dias\b|\b(?:7|seven)\s+days\b/g, term: '_week' },
  { pattern: /\b(?:meses\s+)?sin\s+intereses\b|\binterest[- ]free\b/g, term: '_instalments' },
  // Not "flat" alone: "Valencia is flat".
  { pattern: /\bflat\s+tyres?\b|\bflat\s+tires?\b/g, term: '_puncture' },
  { pattern: /\bcar\s+parks?\b|\bparking\s+lots?\b/g, term: '_parking' },
  { pattern: /\bsillas?\s+de\s+ruedas\b/g, term: '_access' },
  { pattern: /\bpara\s+llevar\b|\btake[- ]away\b|\btake[- ]out\b/g, term: '_takeaway' },
  { pattern: /\bmoney\s+back\b/g, term: '_refund' },
  // "¿Cuánto sale?" (Latin America: how much is it); "sale" alone is also "leaves".
  { pattern: /\bcuanto\s+salen?\b/g, term: '_price' },
  { pattern: /\be-bikes?\b/g, term: '_electric' },
];

const WEAK: Record<KnowledgeLanguage, string> = {
  es: `normal normales cerca lejos todavia aun bien mal bastante nada siempre nunca final ahora luego pronto
    llevar lleva llevan llevo pedir pido pedimos pide dar dan dejar dejo venir vengo vienen viene necesito necesitamos
    necesita necesitan querer queremos gustaria podria podriamos cosa cosas tipo manera forma formas
    diferente diferentes distinto distinta otro otra otros otras nuevo nueva bueno buena mejor ayuda info informacion
    pregunta preguntas duda dudas ver mirar solo sola solos solas mi tu cualquier toda todo todos todas
    voy vas va vamos van iria vendria llego llegar llegamos quedar queda quedan poner pongo volver vuelvo
    suficiente suficientes exactamente cliente clientes`,
  en: `normal usual regular just only alone near nearby still yet already whole entire different other another
    same take takes taking took need needs want wants like go going come coming bring make made give keep use
    thing things kind sort way info information question help really actually possible available any all every
    much ok enough exactly will goes went comes old customer customers client clients`,
};

/** Word lists are space-separated. */
export const wordsOf = (list: string) => list.split(/\s+/).filter(Boolean);

/** Each ring's words in one language (the analysis maps them, and their stems, to the ring's term). */
export function ringWords(language: KnowledgeLanguage): [word: string, term: string][] {
  return Object.entries(RINGS).flatMap(([term, lists]) => wordsOf(lists[language]).map((w): [string, string] => [w, term]));
}

/** All phrases in one pattern (one pass over a text): alternative i is PHRASES[i]. */
const ANY_PHRASE = new RegExp(PHRASES.map((p) => `(${p.pattern.source})`).join('|'), 'g');

/** The concept phrases in a folded text (offsets are the text's own: see foldKeepingOffsets). */
export function conceptPhrases(folded: string): { start: number; end: number; term: string }[] {
  const out: { start: number; end: number; term: string }[] = [];
  for (const m of folded.matchAll(ANY_PHRASE)) {
    const i = m.findIndex((group, k) => k > 0 && group !== undefined);
    out.push({ start: m.index, end: m.index + m[0].length, term: PHRASES[i - 1]!.term });
  }
  return out;
}

/** What the vocabulary maps (rings and phrases): part of the snapshots' analysis fingerprint, so a change to a list rebuilds them. */
export const VOCABULARY_SIGNATURE = JSON.stringify([RINGS, PHRASES.map((p) => [p.pattern.source, p.term])]);

/** The weak words of a language (folded). */
export const weakWords = (language: KnowledgeLanguage) => wordsOf(WEAK[language]);

/** How much a weak word counts in the absolute relevance, against 1 for a topic word. */
export const WEAK_WORD_WEIGHT = 0.25;
