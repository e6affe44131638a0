// The types the misspelt C annotations (BrokenCAnnotations) meant to name.
protocol PaymentService {}

final class CartModule {}

final class PaymentServiceImpl: PaymentService {}

print(CartModule(), PaymentServiceImpl())
