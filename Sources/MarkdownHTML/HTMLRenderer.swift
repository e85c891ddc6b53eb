import MarkdownSyntax
public enum HTMLRendererStub {}
