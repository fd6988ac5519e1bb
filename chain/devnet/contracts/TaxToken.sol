// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Token} from "./Token.sol";

/// @title TaxToken: a Token with a buy and a sell tax on one pair, and a honeypot switch. FOR TESTS ONLY.
/// @notice Exists so the pool audit has the bad tokens it must recognise: deployable on the devnet, never seeded
///         into a market on purpose. The owner registers the pair (setPair) and sets the taxes in basis points:
///         a transfer FROM the pair (a buy) loses buyTaxBps of its value, a transfer TO the pair (a sell) loses
///         sellTaxBps; the tax goes to this contract and the recipient gets the rest. Transfers from or to the
///         owner are exempt, so the owner can add liquidity. With the honeypot switch on, every transfer to the
///         pair from anyone but the owner reverts: buying works, selling never does.
contract TaxToken is Token {
    uint256 public constant MAX_BPS = 10_000;

    address public pair;
    uint16 public buyTaxBps;
    uint16 public sellTaxBps;
    bool public honeypot;

    event PairSet(address indexed pair);
    event TaxesSet(uint256 buyTaxBps, uint256 sellTaxBps);
    event HoneypotSet(bool enabled);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) Token(name_, symbol_, decimals_) {}

    /// @notice The pair whose buys and sells are taxed (and, as a honeypot, whose sells revert).
    function setPair(address pair_) external onlyOwner {
        pair = pair_;
        emit PairSet(pair_);
    }

    /// @notice Taxes in basis points of the transferred value, at most MAX_BPS (100%) each.
    function setTaxes(uint256 buyBps, uint256 sellBps) external onlyOwner {
        require(buyBps <= MAX_BPS && sellBps <= MAX_BPS, "TaxToken: tax above 100%");
        buyTaxBps = uint16(buyBps);
        sellTaxBps = uint16(sellBps);
        emit TaxesSet(buyBps, sellBps);
    }

    function setHoneypot(bool enabled) external onlyOwner {
        honeypot = enabled;
        emit HoneypotSet(enabled);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        address _pair = pair;
        address _owner = owner;
        uint256 tax;
        if (_pair != address(0) && from != _owner && to != _owner) {
            if (to == _pair) {
                require(!honeypot, "TaxToken: transfer to the pair is disabled");
                tax = (value * sellTaxBps) / MAX_BPS;
            } else if (from == _pair) {
                tax = (value * buyTaxBps) / MAX_BPS;
            }
        }
        if (tax > 0) {
            super._transfer(from, address(this), tax);
        }
        super._transfer(from, to, value - tax);
    }
}
