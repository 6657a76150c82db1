/** The intent patterns in Turkish: see src/guard/intents.ts. */
import { B, E, P, re, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const trPatterns = (): IntentPattern[] => [
  // ── Turkish ───────────────────────────────────────────────────────────────
  {
    id: 'tr-override',
    category: 'instruction_override',
    lang: 'tr',
    regex: re(`(?:önceki|önceden|yukarıdaki|yukardaki|tüm|bütün|senin|sistem|orijinal|ilk|güvenlik|mevcut)${E}${P}{0,30}?(?:talimat|yönerge|kural|komut|istem|prompt|kısıtlama|sınırlama)\\p{L}*${P}{0,15}?(?:yok\\s+say|görmezden\\s+gel|unut|boş\\s+ver|dikkate\\s+alma|uyma)`),
    prose: true,
  },
  {
    id: 'tr-role',
    category: 'role_hijack',
    lang: 'tr',
    regex: re(`(?:artık|bundan\\s+sonra|şu\\s+andan\\s+itibaren)${E}${P}{0,10}?(?:bir\\s+)?(?:asistan|yardımcı|yapay\\s+zek[aâ]|bot|model)\\s+değilsin|(?:kısıtlama|sınır|kural|filtre|sansür)\\p{L}*\\s+(?:olmayan|bulunmayan|tanımayan)\\s+(?:bir\\s+)?(?:yapay\\s+zek[aâ]|asistan|bot|model)|kısıtlamasız\\s+(?:bir\\s+)?(?:yapay\\s+zek|asistan|bot)`),
    prose: false,
  },
  {
    id: 'tr-mode',
    category: 'role_hijack',
    lang: 'tr',
    regex: re(`geliştirici\\s+mod(?:u|una|unda)?\\s+(?:artık\\s+|şimdi\\s+)?(?:etkin|aktif|açık|devrede|etkinleştirildi|açıldı)|(?:geliştirici|sistem|güvenlik|senin|tüm|bütün|önceki|asistan)\\s+(?:\\p{L}+\\s+)?(?:kural|kısıtlama|sınırlama|talimat|yönerge|filtre)\\p{L}*\\s+artık\\s+(?:geçerli\\s+değil|geçersiz|uygulanmıyor|uygulanmaz|yok)|artık\\s+(?:hiçbir\\s+)?(?:kısıtlama|sınır|kural|filtre)\\p{L}*\\s+(?:yok|bulunmuyor)`),
    prose: false,
  },
  {
    id: 'tr-leak',
    category: 'prompt_leak',
    lang: 'tr',
    regex: re(`(?:sistem\\s+istem|sistem\\s+prompt|sistem\\s+talimat|sistem\\s+mesaj|gizli\\s+talimat|talimatların|istemin)\\p{L}*${P}{0,50}?(?:göster|yazdır|yaz|söyle|paylaş|tekrarla|ver|ifşa\\s+et|dök)`),
    prose: true,
  },
  {
    id: 'tr-exfil',
    category: 'exfiltration',
    lang: 'tr',
    regex: re(`(?:konuşma|sohbet|mesaj|şifre|parola|anahtar|token|kimlik\\s+bilgi|\\.env|id_rsa|içeriğ|içerik|ortam\\s+değişken)\\p{L}*${P}{0,40}?${B}(?:gönder|ilet|yükle|paylaş|aktar|yolla)`),
    prose: true,
  },
  {
    id: 'tr-covert',
    category: 'instruction_override',
    lang: 'tr',
    regex: re(`(?:kullanıcıya|kullanıcıyı|kullanıcının|kullanıcı)${E}${P}{0,20}?(?:söyleme|bahsetme|haber\\s+verme|bildirme|anlatma|fark\\s+ettirme)(?:yin|yiniz|den)?${E}|(?:gizlice|sessizce|kimseye\\s+söylemeden|fark\\s+ettirmeden|çaktırmadan)${E}${P}{0,20}?(?:gönder|çalıştır|kaydet|ekle|ilet|yükle)`),
    prose: false,
  },
  {
    id: 'tr-anyone',
    category: 'exfiltration',
    lang: 'tr',
    regex: re(`(?:şifre|parola|anahtar|token|kimlik\\s+bilgi)\\p{L}*${P}{0,50}?(?:soran\\s+herkese|isteyen\\s+herkese|herkese|kim\\s+sorarsa)`),
    prose: true,
  },
];
