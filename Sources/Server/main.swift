print("matchismo")
