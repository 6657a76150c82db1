/** Concept signals in a few words of Dutch, Polish, Vietnamese and Indonesian, for the main concepts (src/guard/concepts.ts). */
import type { Signal } from '../signal-types.js';
import { re, E, W } from './kit.js';

export function moreLanguageSignals(): Signal[] {
  return [
    // ── a few words of Dutch, Polish, Vietnamese and Indonesian for the main concepts ─────────────
    {
      kind: 'override',
      stems: ['lupakan', 'abaikan', 'vergeet', 'negeer', 'zignoruj', 'zapomnij', 'bo qua'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(`(?:lupakan|abaikan|vergeet|negeer|zignoruj|zapomnij|bỏ\\s+qua)\\s+${W(4)}(?:instruksi|aturan|batasan|instructies|regels|instrukcje|zasady|quy\\s+tắc|hướng\\s+dẫn|chỉ\\s+dẫn)`),
    },
    {
      kind: 'limits_off',
      stems: ['tanpa', 'zonder', 'bez ', 'khong gioi', 'obowiazuja'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(`(?:tanpa\\s+(?:aturan|batasan|filter)|zonder\\s+(?:regels|grenzen|beperkingen|filters)|bez\\s+(?:ograniczeń|zasad|filtrów)|nie\\s+obowiązują\\s+${W(2)}(?:wcześniejsze\\s+)?(?:zasady|reguły|instrukcje)|không\\s+(?:giới\\s+hạn|hạn\\s+chế|bị\\s+ràng\\s+buộc))${E}`),
    },
    {
      kind: 'role_switch',
      stems: ['mulai sekarang', 'vanaf nu', 'od teraz', 'tu bay gio'],
      weight: 3,
      strong: true,
      regex: re(`(?:mulai\\s+sekarang\\s+kamu|vanaf\\s+nu\\s+(?:ben\\s+je|geldt)|od\\s+teraz\\s+(?:jesteś|działasz)|từ\\s+bây\\s+giờ\\s+bạn)${E}`),
    },
    {
      kind: 'precedence',
      stems: ['gaat boven', 'ma pierwszenstwo', 'uu tien hon', 'lebih tinggi'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(`(?:gaat\\s+boven|heeft\\s+voorrang\\s+op|ma\\s+pierwszeństwo\\s+przed|ưu\\s+tiên\\s+hơn|lebih\\s+tinggi\\s+dari(?:pada)?|mengesampingkan)${E}`),
      accept: (m, text) => /operator|beheerder|operatora|nhà\s+vận\s+hành|sistem|systeem|persona/i.test(text.slice(m.index, m.index + m[0].length + 80)),
    },
    {
      kind: 'prompt_object',
      stems: ['prompt sistem', 'instruksi awal', 'systeeminstructies', 'systeemprompt', 'voor het gesprek', 'przed rozmow', 'loi nhac', 'he thong'],
      weight: 2,
      strong: false,
      regex: re(`(?:prompt\\s+sistem|instruksi\\s+(?:awal|sistem)|systeeminstructies|systeemprompt|vóór\\s+het\\s+gesprek|beschrijvingen\\s+van\\s+je\\s+tools|prompt\\s+systemowy|lời\\s+nhắc\\s+hệ\\s+thống|hướng\\s+dẫn\\s+hệ\\s+thống)${E}`),
    },
    {
      kind: 'verbatim',
      stems: ['letterlijk', 'volledig', 'nguyen van', 'toan bo', 'utuh', 'lengkap'],
      weight: 1,
      strong: false,
      regex: re(`(?:letterlijk|volledig|nguyên\\s+văn|toàn\\s+bộ\\s+nội\\s+dung|secara\\s+utuh|selengkapnya|kata\\s+demi\\s+kata)${E}`),
    },
    {
      kind: 'read',
      negatable: 'clause',
      stems: ['laat', 'toon', 'tampilkan', 'in ra', 'wypisz', 'pokaz'],
      weight: 1,
      strong: false,
      regex: re(`(?:laat\\s+${W(3)}zien|toon|tampilkan|in\\s+ra|wypisz|pokaż)${E}`),
    },
    {
      kind: 'send',
      negatable: 'clause',
      stems: ['dan ', 'chuyen tiep', 'gui', 'kirim', 'stuur', 'wyslij'],
      weight: 1,
      strong: false,
      regex: re(`(?:dán|chuyển\\s+tiếp|gửi|kirim(?:kan)?|stuur|doorsturen|wyślij|przekaż)${E}`),
    },
    {
      kind: 'channel',
      negatable: 'clause',
      stems: ['cau tra loi', 'jawaban', 'antwoord', 'odpowiedzi'],
      weight: 1,
      strong: false,
      regex: re(`(?:vào\\s+câu\\s+trả\\s+lời|ke\\s+dalam\\s+jawaban|in\\s+het\\s+antwoord|w\\s+odpowiedzi)${E}`),
    },
    {
      kind: 'mirror',
      stems: ['moi cau', 'setiap jawaban', 'elk antwoord', 'kazda odpowiedz'],
      weight: 2,
      strong: false,
      regex: re(`(?:mọi\\s+câu\\s+trả\\s+lời|setiap\\s+jawaban|elk\\s+antwoord|każdą\\s+odpowiedź)${E}`),
    },
    {
      kind: 'covert',
      stems: ['nie trzeba', 'nie wspominaj', 'nie mow', 'khong noi', 'khong can', 'jangan beri', 'zonder het te', 'niet vertellen'],
      weight: 2,
      strong: true,
      regex: re(`(?:nie\\s+trzeba\\s+${W(2)}informować|nie\\s+wspominaj|nie\\s+mów|không\\s+nói\\s+cho|không\\s+cần\\s+thông\\s+báo|jangan\\s+(?:beri\\s+tahu|memberi\\s+tahu)|zonder\\s+het\\s+te\\s+(?:zeggen|melden)|niet\\s+(?:vertellen|melden))${E}`),
    },
    {
      kind: 'secret',
      stems: ['mat khau', 'kata sandi', 'wachtwoord', 'haslo'],
      weight: 1,
      strong: false,
      regex: re(`(?:mật\\s+khẩu|kata\\s+sandi|wachtwoord\\p{L}*)${E}`),
    },
  ];
}
