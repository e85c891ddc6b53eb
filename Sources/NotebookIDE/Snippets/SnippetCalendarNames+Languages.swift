// The month and day names of the languages besides English, from CLDR 46 (ICU 76).
//
// Invariants:
// - Every list is CLDR's stand-alone form (the name alone, as a snippet variable inserts it),
//   wide or abbreviated, with CLDR's capitalization and trailing periods: Polish `styczeń`, not
//   the genitive `stycznia` of a date; Finnish `maanantai`, not the `maanantaina` of a date.
// - Months January first, days Sunday first; each table has 12, 12, 7 and 7 names, none
//   repeated within a list.
// - Chinese has both scripts (`chinese` the simplified, `chineseTraditional` the traditional,
//   from CLDR's `zh` and `zh_Hant`); Norwegian `no` reads Bokmål.
// - Arabic is CLDR's `ar`, whose abbreviated names are its wide ones.

extension SnippetCalendarNames {
    /// `1月` to `12月`: the months of Japanese, and of Chinese in the traditional script (and its
    /// abbreviated ones in both scripts).
    static let numberedMonths = (1...12).map { String($0) + "月" }

    /// German.
    public static let german = SnippetCalendarNames(
        months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                 "November", "Dezember"],
        shortMonths: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
        days: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
        shortDays: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"])

    /// French.
    public static let french = SnippetCalendarNames(
        months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                 "novembre", "décembre"],
        shortMonths: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
                      "déc."],
        days: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
        shortDays: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."])

    /// Spanish.
    public static let spanish = SnippetCalendarNames(
        months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
                 "noviembre", "diciembre"],
        shortMonths: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
        days: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
        shortDays: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"])

    /// Italian.
    public static let italian = SnippetCalendarNames(
        months: ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
                 "ottobre", "novembre", "dicembre"],
        shortMonths: ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"],
        days: ["domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"],
        shortDays: ["dom", "lun", "mar", "mer", "gio", "ven", "sab"])

    /// Portuguese.
    public static let portuguese = SnippetCalendarNames(
        months: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
                 "novembro", "dezembro"],
        shortMonths: ["jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."],
        days: ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"],
        shortDays: ["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."])

    /// Dutch.
    public static let dutch = SnippetCalendarNames(
        months: ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
                 "november", "december"],
        shortMonths: ["jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"],
        days: ["zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"],
        shortDays: ["zo", "ma", "di", "wo", "do", "vr", "za"])

    /// Swedish.
    public static let swedish = SnippetCalendarNames(
        months: ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
                 "november", "december"],
        shortMonths: ["jan.", "feb.", "mars", "apr.", "maj", "juni", "juli", "aug.", "sep.", "okt.", "nov.", "dec."],
        days: ["söndag", "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag"],
        shortDays: ["sön", "mån", "tis", "ons", "tors", "fre", "lör"])

    /// Danish.
    public static let danish = SnippetCalendarNames(
        months: ["januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september", "oktober",
                 "november", "december"],
        shortMonths: ["jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec"],
        days: ["søndag", "mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag"],
        shortDays: ["søn.", "man.", "tirs.", "ons.", "tors.", "fre.", "lør."])

    /// Norwegian Bokmål (also `no`).
    public static let norwegianBokmal = SnippetCalendarNames(
        months: ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober",
                 "november", "desember"],
        shortMonths: ["jan", "feb", "mar", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "des"],
        days: ["søndag", "mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag"],
        shortDays: ["søn.", "man.", "tir.", "ons.", "tor.", "fre.", "lør."])

    /// Norwegian Nynorsk.
    public static let norwegianNynorsk = SnippetCalendarNames(
        months: ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober",
                 "november", "desember"],
        shortMonths: ["jan", "feb", "mar", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "des"],
        days: ["søndag", "måndag", "tysdag", "onsdag", "torsdag", "fredag", "laurdag"],
        shortDays: ["søn", "mån", "tys", "ons", "tor", "fre", "lau"])

    /// Finnish.
    public static let finnish = SnippetCalendarNames(
        months: ["tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu",
                 "syyskuu", "lokakuu", "marraskuu", "joulukuu"],
        shortMonths: ["tammi", "helmi", "maalis", "huhti", "touko", "kesä", "heinä", "elo", "syys", "loka", "marras",
                      "joulu"],
        days: ["sunnuntai", "maanantai", "tiistai", "keskiviikko", "torstai", "perjantai", "lauantai"],
        shortDays: ["su", "ma", "ti", "ke", "to", "pe", "la"])

    /// Polish.
    public static let polish = SnippetCalendarNames(
        months: ["styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień",
                 "październik", "listopad", "grudzień"],
        shortMonths: ["sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"],
        days: ["niedziela", "poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"],
        shortDays: ["niedz.", "pon.", "wt.", "śr.", "czw.", "pt.", "sob."])

    /// Czech.
    public static let czech = SnippetCalendarNames(
        months: ["leden", "únor", "březen", "duben", "květen", "červen", "červenec", "srpen", "září", "říjen",
                 "listopad", "prosinec"],
        shortMonths: ["led", "úno", "bře", "dub", "kvě", "čvn", "čvc", "srp", "zář", "říj", "lis", "pro"],
        days: ["neděle", "pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota"],
        shortDays: ["ne", "po", "út", "st", "čt", "pá", "so"])

    /// Russian.
    public static let russian = SnippetCalendarNames(
        months: ["январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь",
                 "ноябрь", "декабрь"],
        shortMonths: ["янв.", "февр.", "март", "апр.", "май", "июнь", "июль", "авг.", "сент.", "окт.", "нояб.",
                      "дек."],
        days: ["воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"],
        shortDays: ["Вс", "Пн", "Вт", "Ср", "Чт", "Пт", "Сб"])

    /// Ukrainian.
    public static let ukrainian = SnippetCalendarNames(
        months: ["січень", "лютий", "березень", "квітень", "травень", "червень", "липень", "серпень", "вересень",
                 "жовтень", "листопад", "грудень"],
        shortMonths: ["січ.", "лют.", "бер.", "квіт.", "трав.", "черв.", "лип.", "серп.", "вер.", "жовт.", "лист.",
                      "груд."],
        days: ["неділя", "понеділок", "вівторок", "середа", "четвер", "пʼятниця", "субота"],
        shortDays: ["нд", "пн", "вт", "ср", "чт", "пт", "сб"])

    /// Turkish.
    public static let turkish = SnippetCalendarNames(
        months: ["Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım",
                 "Aralık"],
        shortMonths: ["Oca", "Şub", "Mar", "Nis", "May", "Haz", "Tem", "Ağu", "Eyl", "Eki", "Kas", "Ara"],
        days: ["Pazar", "Pazartesi", "Salı", "Çarşamba", "Perşembe", "Cuma", "Cumartesi"],
        shortDays: ["Paz", "Pzt", "Sal", "Çar", "Per", "Cum", "Cmt"])

    /// Greek.
    public static let greek = SnippetCalendarNames(
        months: ["Ιανουάριος", "Φεβρουάριος", "Μάρτιος", "Απρίλιος", "Μάιος", "Ιούνιος", "Ιούλιος", "Αύγουστος",
                 "Σεπτέμβριος", "Οκτώβριος", "Νοέμβριος", "Δεκέμβριος"],
        shortMonths: ["Ιαν", "Φεβ", "Μάρ", "Απρ", "Μάι", "Ιούν", "Ιούλ", "Αύγ", "Σεπ", "Οκτ", "Νοέ", "Δεκ"],
        days: ["Κυριακή", "Δευτέρα", "Τρίτη", "Τετάρτη", "Πέμπτη", "Παρασκευή", "Σάββατο"],
        shortDays: ["Κυρ", "Δευ", "Τρί", "Τετ", "Πέμ", "Παρ", "Σάβ"])

    /// Hungarian.
    public static let hungarian = SnippetCalendarNames(
        months: ["január", "február", "március", "április", "május", "június", "július", "augusztus", "szeptember",
                 "október", "november", "december"],
        shortMonths: ["jan.", "febr.", "márc.", "ápr.", "máj.", "jún.", "júl.", "aug.", "szept.", "okt.", "nov.",
                      "dec."],
        days: ["vasárnap", "hétfő", "kedd", "szerda", "csütörtök", "péntek", "szombat"],
        shortDays: ["V", "H", "K", "Sze", "Cs", "P", "Szo"])

    /// Romanian.
    public static let romanian = SnippetCalendarNames(
        months: ["ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august", "septembrie",
                 "octombrie", "noiembrie", "decembrie"],
        shortMonths: ["ian.", "feb.", "mar.", "apr.", "mai", "iun.", "iul.", "aug.", "sept.", "oct.", "nov.", "dec."],
        days: ["duminică", "luni", "marți", "miercuri", "joi", "vineri", "sâmbătă"],
        shortDays: ["dum.", "lun.", "mar.", "mie.", "joi", "vin.", "sâm."])

    /// Japanese.
    public static let japanese = SnippetCalendarNames(
        months: numberedMonths,
        shortMonths: numberedMonths,
        days: ["日曜日", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日"],
        shortDays: ["日", "月", "火", "水", "木", "金", "土"])

    /// Chinese, simplified script.
    public static let chinese = SnippetCalendarNames(
        months: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        shortMonths: numberedMonths,
        days: ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"],
        shortDays: ["周日", "周一", "周二", "周三", "周四", "周五", "周六"])

    /// Korean.
    public static let korean = SnippetCalendarNames(
        months: ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월"],
        shortMonths: ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월"],
        days: ["일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"],
        shortDays: ["일", "월", "화", "수", "목", "금", "토"])

    /// Chinese, traditional script (CLDR `zh_Hant`).
    public static let chineseTraditional = SnippetCalendarNames(
        months: numberedMonths,
        shortMonths: numberedMonths,
        days: ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"],
        shortDays: ["週日", "週一", "週二", "週三", "週四", "週五", "週六"])

    /// Arabic (CLDR `ar`: the abbreviated names are the wide ones).
    public static let arabic = SnippetCalendarNames(
        months: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
                 "ديسمبر"],
        shortMonths: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر",
                      "نوفمبر", "ديسمبر"],
        days: ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"],
        shortDays: ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"])
}
