// Catalog+Strings: the string catalog of MacMD, compiled in as JSON text in the `.xcstrings`
// shape, so the binary carries its strings wherever it is copied (no resource bundle).
//
// Invariants (checked by LocalizationTests/CatalogContentTests):
// - The text parses; every key has an `en` value and a comment for translators.
// - Keys are dot-separated lower-camel-case ASCII segments (`diagnostic.link.brokenFile`).
// - Every translation uses the placeholders of its `en` value (same positions, same types), and
//   every plural translation has the categories its language reaches (`PluralRules`).
// How to add a string or a language: docs/localization.md.

extension Catalog {
    /// The JSON text of `Catalog.builtIn`.
    public static let builtInJSON = #"""
{
  "sourceLanguage" : "en",
  "version" : "1.0",
  "strings" : {
    "codeAction.link.createNote" : {
      "comment" : "Title of a code action on a broken link that creates the missing note. %1$@: the note's name as written in the link.",
      "localizations" : {
        "ar" : { "stringUnit" : { "state" : "translated", "value" : "إنشاء الملاحظة `%1$@`" } },
        "de" : { "stringUnit" : { "state" : "translated", "value" : "Notiz `%1$@` anlegen" } },
        "en" : { "stringUnit" : { "state" : "translated", "value" : "Create note `%1$@`" } }
      }
    },
    "diagnostic.heading.duplicate" : {
      "comment" : "Diagnostic on a heading whose text another heading of the same note already has, so links to it are ambiguous. %1$@: the heading text.",
      "localizations" : {
        "ar" : { "stringUnit" : { "state" : "translated", "value" : "العنوان `%1$@` مكرر في هذه الملاحظة" } },
        "de" : { "stringUnit" : { "state" : "translated", "value" : "Die Überschrift `%1$@` kommt in dieser Notiz mehrfach vor" } },
        "en" : { "stringUnit" : { "state" : "translated", "value" : "Heading `%1$@` appears more than once in this note" } }
      }
    },
    "diagnostic.link.brokenFile" : {
      "comment" : "Diagnostic on a link whose target note does not exist. %1$@: the target as written; %2$@: the link's text.",
      "localizations" : {
        "ar" : { "stringUnit" : { "state" : "translated", "value" : "لا توجد ملاحظة باسم `%1$@` للرابط `%2$@`" } },
        "de" : { "stringUnit" : { "state" : "translated", "value" : "Keine Notiz `%1$@` für den Link `%2$@`" } },
        "en" : { "stringUnit" : { "state" : "translated", "value" : "No note `%1$@` for `%2$@`" } }
      }
    },
    "diagnostic.link.brokenHeading" : {
      "comment" : "Diagnostic on a link to a heading that the target note does not have. %1$@: the heading as written; %2$@: the note's name.",
      "localizations" : {
        "ar" : { "stringUnit" : { "state" : "translated", "value" : "لا يوجد عنوان `%1$@` في الملاحظة `%2$@`" } },
        "de" : { "stringUnit" : { "state" : "translated", "value" : "Keine Überschrift `%1$@` in der Notiz `%2$@`" } },
        "en" : { "stringUnit" : { "state" : "translated", "value" : "No heading `%1$@` in `%2$@`" } }
      }
    },
    "hover.backlinks.count" : {
      "comment" : "Hover on a note's title: how many links from other notes point to this note. %lld: the number of links.",
      "localizations" : {
        "ar" : { "variations" : { "plural" : {
          "zero" : { "stringUnit" : { "state" : "translated", "value" : "لا توجد روابط واردة" } },
          "one" : { "stringUnit" : { "state" : "translated", "value" : "رابط وارد واحد" } },
          "two" : { "stringUnit" : { "state" : "translated", "value" : "رابطان واردان" } },
          "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld روابط واردة" } },
          "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld رابطًا واردًا" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld رابط وارد" } }
        } } },
        "de" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld eingehender Link" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld eingehende Links" } }
        } } },
        "en" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld backlink" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld backlinks" } }
        } } }
      }
    },
    "hover.tag.count" : {
      "comment" : "Hover on a tag: in how many notes the tag appears. %1$@: the tag without its #; %2$lld: the number of notes.",
      "localizations" : {
        "ar" : { "variations" : { "plural" : {
          "zero" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` غير مستخدم في أي ملاحظة" } },
          "one" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` في ملاحظة واحدة" } },
          "two" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` في ملاحظتين" } },
          "few" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` في %2$lld ملاحظات" } },
          "many" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` في %2$lld ملاحظةً" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "الوسم `#%1$@` في %2$lld ملاحظة" } }
        } } },
        "de" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "Tag `#%1$@` in %2$lld Notiz" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "Tag `#%1$@` in %2$lld Notizen" } }
        } } },
        "en" : { "variations" : { "plural" : {
          "one" : { "stringUnit" : { "state" : "translated", "value" : "Tag `#%1$@` in %2$lld note" } },
          "other" : { "stringUnit" : { "state" : "translated", "value" : "Tag `#%1$@` in %2$lld notes" } }
        } } }
      }
    }
  }
}
"""#
}
