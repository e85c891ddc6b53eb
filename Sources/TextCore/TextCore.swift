public enum TextCoreInfo {}
