"""Export faces for other uses: component faces into PNG images, Tabletop Simulator sheets, print-shop files and proofs."""
